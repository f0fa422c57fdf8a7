// The runtime suite: every fixture test against one copy of the built package, in whatever
// runtime loaded it. Web-platform JavaScript only, so the same file runs in Node, Chromium,
// workerd, Deno and Bun; each runtime's entry passes the package in and reports the result.
import { adapterTests } from './adapter-tests.mjs';
import { answerTests } from './answer-tests.mjs';
import { clientTests } from './client-tests.mjs';
import { show } from './check.mjs';
import { scannerTests } from './scanner-tests.mjs';
import { signalTests } from './signal-tests.mjs';

/** The root exports the suite uses; a missing one fails loudly rather than as a TypeError. */
const USED = [
  'scan',
  'scanStart',
  'scanEnd',
  'answer',
  'answerStart',
  'answerEnd',
  'readAnswer',
  'readAnswerBody',
  'scanEvents',
  'SseEventStream',
  'AnswerError',
  'isAnswerError',
  'ACCEPT',
  'DEFAULT_MAX_BYTES',
  'postJsonRpc',
  'AnswerTransport',
  'AnswerClient',
];

/**
 * Runs every test against `pkg` (the package's root module) and returns the counts and the
 * failures, each with the test's name and what differed.
 */
export async function runSuite(pkg) {
  const tests = [
    { name: 'package: the root exports what the suite uses, with their documented values', run: () => checkExports(pkg) },
    ...scannerTests(pkg),
    ...answerTests(pkg),
    ...adapterTests(pkg),
    ...signalTests(pkg),
    ...clientTests(pkg),
  ];
  const failures = [];
  for (const test of tests) {
    try {
      await test.run();
    } catch (error) {
      failures.push({ name: test.name, message: error instanceof Error ? error.message : show(error) });
    }
  }
  return { passed: tests.length - failures.length, failed: failures.length, failures };
}

function checkExports(pkg) {
  const missing = USED.filter((name) => !(name in pkg));
  if (missing.length > 0) throw new Error(`missing exports: ${missing.join(', ')}`);
  if (pkg.ACCEPT !== 'application/json, text/event-stream') throw new Error(`ACCEPT is ${show(pkg.ACCEPT)}`);
  if (pkg.DEFAULT_MAX_BYTES !== 16 * 1024 * 1024) throw new Error(`DEFAULT_MAX_BYTES is ${show(pkg.DEFAULT_MAX_BYTES)}`);
}
