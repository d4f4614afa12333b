// A minimal stand-in for web-platform-tests' testharness.js, written for formtools' own runner:
// promise_test, step_timeout, assert_true, assert_equals and assert_array_equals, with each result
// in window.__wptResults and window.__wptDone set at the end. It keeps the real harness's timing,
// which the exported tests must survive under WPT: a promise_test starts as soon as it is
// declared (not at the load event: the page may still be parsing, without a body), the tests run
// one after another, and the harness times out after 10 s, or 60 s with
// <meta name="timeout" content="long"> — then the running test is TIMEOUT and the rest NOTRUN.
// Under WPT the real testharness.js runs the same exported tests.
"use strict";
(() => {
  const declared = [];
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
  window.step_timeout = (fn, ms) => setTimeout(fn, ms);
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    const ran = new Set(window.__wptResults.map(result => result.name));
    let first = true;
    for (const name of declared) {
      if (ran.has(name)) continue;
      window.__wptResults.push({name, status: first ? "TIMEOUT" : "NOTRUN", message: "harness timeout"});
      first = false;
    }
    window.__wptDone = true;
  };
  let chain = Promise.resolve();
  window.promise_test = (fn, name) => {
    declared.push(name);
    chain = chain.then(async () => {
      if (finished) return;
      try {
        await fn();
        if (!finished) window.__wptResults.push({name, status: "PASS"});
      } catch (error) {
        if (!finished) window.__wptResults.push({name, status: "FAIL", message: String(error && error.message || error)});
      }
    });
  };
  const timeout = () => {
    const meta = document.querySelector('meta[name="timeout"]');
    return meta && meta.content === "long" ? 60_000 : 10_000;
  };
  setTimeout(finish, timeout());  // the <meta name="timeout"> comes before the harness script
  window.addEventListener("load", () => chain.then(finish), {once: true});
})();
