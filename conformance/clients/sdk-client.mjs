// The conformance suite's client under test: the v2 MCP SDK's `Client`
// (`@modelcontextprotocol/client`) over this package's `AnswerTransport`, from the built package
// (`dist/`, imported by the package's own name). The Client negotiates the era as one that does
// not know its server does (`versionNegotiation: { mode: 'auto' }`); everything on the wire is
// the transport's. The suite starts it as `node sdk-client.mjs <server-url>` with the scenario in
// MCP_CONFORMANCE_SCENARIO.
import { Client } from '@modelcontextprotocol/client';
import { AnswerTransport } from 'sse-answer';
import { scenarioFlows } from './flows.mjs';
import { EXCHANGE_TIMEOUT_MS, runScenario } from './scenario.mjs';

const CLIENT_INFO = { name: 'sse-answer-sdk-conformance', version: '1.0.0' };

/** The result schema of an extension's method (Standard Schema, as the SDK takes): any object, the flow reads it. */
const ANY_RESULT = {
  '~standard': {
    version: 1,
    vendor: 'sse-answer-conformance',
    validate: (value) => (typeof value === 'object' && value !== null ? { value } : { issues: [{ message: 'a result is an object' }] }),
  },
};

/** @type {import('./flows.mjs').Connect} */
async function connect(serverUrl, { capabilities, onInput, authProvider, fetch }) {
  const client = new Client(CLIENT_INFO, { capabilities: capabilities ?? {}, versionNegotiation: { mode: 'auto' } });
  if (onInput !== undefined) {
    // The SDK routes each server request (2025) and each input request of an input_required
    // result (2026) to the handler of its method; it takes one only for a capability declared.
    for (const [method, capability] of [
      ['elicitation/create', 'elicitation'],
      ['roots/list', 'roots'],
    ]) {
      if (capabilities?.[capability] !== undefined) client.setRequestHandler(method, (request) => onInput({ method, params: request.params }));
    }
  }
  const transport = new AnswerTransport(serverUrl, {
    timeoutMs: EXCHANGE_TIMEOUT_MS,
    ...(authProvider === undefined ? {} : { authProvider }),
    ...(fetch === undefined ? {} : { fetch }),
  });
  await client.connect(transport);
  return {
    listTools: () => client.listTools(),
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    listResources: () => client.listResources(),
    readResource: (uri) => client.readResource({ uri }),
    listPrompts: () => client.listPrompts(),
    getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
    request: (method, params) => client.request({ method, params }, ANY_RESULT),
    close: () => client.close(),
  };
}

await runScenario(scenarioFlows(connect));
