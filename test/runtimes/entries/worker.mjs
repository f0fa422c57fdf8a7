// workerd: a module worker that runs the suite when fetched and answers with its result. It loads
// dist/index.js, the file package.json "exports" gives an ESM consumer such as a worker bundler.
import * as pkg from '../../../dist/index.js';
import { runSuite } from '../suite.mjs';

export default {
  async fetch() {
    return Response.json(await runSuite(pkg));
  },
};
