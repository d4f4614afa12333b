// A minimal stand-in for web-platform-tests' testharness.js, written for formtools' own runner:
// promise_test, assert_true, assert_equals and assert_array_equals, run one after another, with
// each result in window.__wptResults and window.__wptDone set at the end. Under WPT the real
// testharness.js runs the same exported tests.
"use strict";
(() => {
  const tests = [];
  window.__wptResults = [];
  window.__wptDone = false;
  class AssertionError extends Error {}
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  window.assert_true = (value, message) => { if (value !== true) throw new AssertionError(message || "assert_true"); };
  window.assert_equals = (actual, expected, message) => {
    if (!Object.is(actual, expected)) throw new AssertionError(`${message || "assert_equals"}: ${actual} !== ${expected}`);
  };
  window.assert_array_equals = (actual, expected, message) => {
    if (!same(actual, expected)) throw new AssertionError(`${message || "assert_array_equals"}: ${JSON.stringify(actual)}`);
  };
  window.promise_test = (fn, name) => tests.push([fn, name]);
  window.addEventListener("load", async () => {
    for (const [fn, name] of tests) {
      try {
        await fn();
        window.__wptResults.push({name, status: "PASS"});
      } catch (error) {
        window.__wptResults.push({name, status: "FAIL", message: String(error && error.message || error)});
      }
    }
    window.__wptDone = true;
  });
})();
