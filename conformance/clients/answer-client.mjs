// The conformance suite's client under test: this package's `AnswerClient`, from the built
// package (`dist/`, imported by the package's own name), negotiating the era as a client that
// does not know its server does (`versionNegotiation: 'auto'`). The suite starts it as
// `node answer-client.mjs <server-url>` with the scenario in MCP_CONFORMANCE_SCENARIO.
import { AnswerClient } from 'sse-answer';
import { scenarioFlows } from './flows.mjs';
import { EXCHANGE_TIMEOUT_MS, runScenario } from './scenario.mjs';

const CLIENT_INFO = { name: 'sse-answer-conformance', version: '1.0.0' };

/** The result of an answer, or its JSON-RPC error thrown, as an application reads one. */
function resultOf(method, answer) {
  if ('error' in answer) throw new Error(`${method} was answered with error ${JSON.stringify(answer.error)}`);
  return answer.result;
}

/** @type {import('./flows.mjs').Connect} */
async function connect(serverUrl, { capabilities, onInput, authProvider, fetch }) {
  const client = await AnswerClient.connect(serverUrl, {
    clientInfo: CLIENT_INFO,
    timeoutMs: EXCHANGE_TIMEOUT_MS,
    ...(capabilities === undefined ? {} : { capabilities }),
    ...(onInput === undefined ? {} : { onInputRequired: (request) => onInput(request) }),
    ...(authProvider === undefined ? {} : { authProvider }),
    ...(fetch === undefined ? {} : { fetch }),
  });
  const request = async (method, params) => resultOf(method, await client.request(method, params));
  return {
    listTools: () => request('tools/list', {}),
    callTool: (name, args) => request('tools/call', { name, arguments: args }),
    listResources: () => request('resources/list', {}),
    readResource: (uri) => request('resources/read', { uri }),
    listPrompts: () => request('prompts/list', {}),
    getPrompt: (name, args) => request('prompts/get', { name, arguments: args }),
    request,
    close: async () => {
      await client.close();
    },
  };
}

await runScenario(scenarioFlows(connect));
