"""Crawling many pages: batch over files, URL lists and WARC archives."""
