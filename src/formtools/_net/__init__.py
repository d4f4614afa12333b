"""The one guarded, bounded fetch."""
