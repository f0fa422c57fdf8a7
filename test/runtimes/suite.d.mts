// Types for suite.mjs, which every runtime loads as it is.

/** One failed test: its name and what differed. */
export interface SuiteFailure {
  name: string;
  message: string;
}

/** The counts and failures of one run of the suite. */
export interface SuiteResult {
  passed: number;
  failed: number;
  failures: SuiteFailure[];
}

/** Runs every test against `pkg` (the package's root module). */
export function runSuite(pkg: object): Promise<SuiteResult>;
