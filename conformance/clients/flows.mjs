// What a client does in each client scenario of the conformance suite, written once over a small
// MCP surface that each client program supplies (`AnswerClient`; the v2 SDK's `Client` over
// `AnswerTransport`). Each flow is what an application would do against such a server: connect,
// list what it offers, use it, close. A scenario missing here fails its program (no handler),
// so a scenario the suite adds is never passed by doing nothing.
import { isAnswerError } from 'sse-answer';
import { oauthSessionFor } from './oauth.mjs';
import { contextString, log } from './scenario.mjs';
import { listSkills, loadSkill, SKILLS_EXTENSION } from './skills.mjs';
import { answerInput } from './user.mjs';

/**
 * The MCP surface a client program gives the flows.
 * @typedef {object} McpSession
 * @property {() => Promise<{ tools: Array<{ name: string, inputSchema?: unknown }> }>} listTools
 * @property {(name: string, args: Record<string, unknown>) => Promise<unknown>} callTool
 * @property {() => Promise<{ resources: Array<{ uri: string }> }>} listResources
 * @property {(uri: string) => Promise<unknown>} readResource
 * @property {() => Promise<{ prompts: Array<{ name: string }> }>} listPrompts
 * @property {(name: string, args: Record<string, string>) => Promise<unknown>} getPrompt
 * @property {(method: string, params: Record<string, unknown>) => Promise<any>} request a method of an extension, its result
 * @property {() => Promise<void>} close
 */

/**
 * How a program connects: the server URL, and what the flow asks of the client — the
 * capabilities it declares and the handler that answers the server's requests for input, an
 * `authProvider`, and a `fetch` to send with (DPoP's, below the package).
 * @typedef {(serverUrl: string, options: { capabilities?: Record<string, unknown>, onInput?: typeof answerInput, authProvider?: object, fetch?: typeof fetch }) => Promise<McpSession>} Connect
 */

/** The tools the MRTR scenario serves, called in this order: state echoed, no state, unrelated, no resultType. */
const MRTR_TOOLS = ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_unrelated', 'test_mrtr_no_result_type'];

/** A host that offers skills declares the extension. */
const SKILLS_HOST = { capabilities: { extensions: { [SKILLS_EXTENSION]: {} } } };

/** The elicitation a client that asks its user declares, and how the user answers. */
const ASKS_USER = { capabilities: { elicitation: {} }, onInput: answerInput };

/**
 * The flow of every client scenario, for a program that connects with `connect`.
 * @param {Connect} connect
 * @returns {Record<string, (run: { serverUrl: string, scenario: string, context: Record<string, unknown> }) => Promise<void>>}
 */
export function scenarioFlows(connect) {
  /** Connects, runs `use`, closes (a close that fails after `use` failed does not hide `use`'s error). */
  const session = (serverUrl, options, use) => using(connect(serverUrl, options), use);

  /** Runs `use` with the session `connecting` settles with, then closes it. */
  async function using(connecting, use) {
    const mcp = await connecting;
    let failed = true;
    try {
      await use(mcp);
      failed = false;
    } finally {
      await mcp.close().catch((error) => {
        if (!failed) throw error;
      });
    }
  }

  /** Lists the tools and calls `name` with `args`: a server that does not list it fails the flow. */
  const callListed = (name, args) => async (mcp) => {
    const { tools } = await mcp.listTools();
    if (!tools.some((tool) => tool.name === name)) throw new Error(`the server lists no tool ${name} (it lists ${tools.map((tool) => tool.name).join(', ') || 'none'})`);
    log(`${name}:`, JSON.stringify(await mcp.callTool(name, args)));
  };

  /** The OAuth flows: every request with the session's token; a 403 step-up retried once. */
  async function authorized({ serverUrl, scenario, context }) {
    const oauth = oauthSessionFor(scenario, context, 'sse-answer-conformance');
    const options = { authProvider: oauth.authProvider, ...(oauth.fetch === undefined ? {} : { fetch: oauth.fetch }) };
    const connecting = oauth.withStepUp(serverUrl, () => connect(serverUrl, options));
    await using(connecting, async (mcp) => {
      await oauth.withStepUp(serverUrl, () => mcp.listTools());
      await oauth.withStepUp(serverUrl, () => mcp.callTool('test-tool', {}));
    });
  }

  const flows = {
    initialize: ({ serverUrl }) => session(serverUrl, {}, (mcp) => mcp.listTools()),
    tools_call: ({ serverUrl }) => session(serverUrl, {}, callListed('add_numbers', { a: 5, b: 3 })),
    'elicitation-sep1034-client-defaults': ({ serverUrl }) => session(serverUrl, ASKS_USER, callListed('test_client_elicitation_defaults', {})),
    'sse-retry': ({ serverUrl }) => session(serverUrl, {}, callListed('test_reconnection', {})),
    // The client that declares what it answers: roots and elicitation (no model for sampling).
    'request-metadata': ({ serverUrl }) =>
      session(serverUrl, { capabilities: { roots: { listChanged: true }, elicitation: {} }, onInput: answerInput }, (mcp) => mcp.listTools()),
    'sep-2322-client-request-state': ({ serverUrl }) =>
      session(serverUrl, ASKS_USER, async (mcp) => {
        const { tools } = await mcp.listTools();
        for (const name of MRTR_TOOLS) {
          if (!tools.some((tool) => tool.name === name)) throw new Error(`the server lists no tool ${name}`);
          log(`${name}:`, JSON.stringify(await mcp.callTool(name, {})));
        }
      }),
    'http-standard-headers': ({ serverUrl }) =>
      session(serverUrl, {}, async (mcp) => {
        const [tool] = (await mcp.listTools()).tools;
        if (tool !== undefined) await mcp.callTool(tool.name, {});
        const [resource] = (await mcp.listResources()).resources;
        if (resource !== undefined) await mcp.readResource(resource.uri);
        const [prompt] = (await mcp.listPrompts()).prompts;
        if (prompt !== undefined) await mcp.getPrompt(prompt.name, {});
      }),
    // The calls to make come with the scenario: values that exercise the header encoding.
    'http-custom-headers': ({ serverUrl, context }) =>
      session(serverUrl, {}, async (mcp) => {
        await mcp.listTools();
        const calls = Array.isArray(context['toolCalls']) ? context['toolCalls'] : [];
        if (calls.length === 0) throw new Error('MCP_CONFORMANCE_CONTEXT has no toolCalls');
        for (const call of calls) await mcp.callTool(contextString(call, 'name'), call.arguments ?? {});
      }),
    // Every listed tool is called; one whose x-mcp-header annotations are invalid must be
    // refused by the client before anything is sent (AnswerClient: `invalid_tool`; the SDK's
    // Client leaves it out of the list).
    'http-invalid-tool-headers': ({ serverUrl }) =>
      session(serverUrl, {}, async (mcp) => {
        for (const { name } of (await mcp.listTools()).tools) {
          try {
            await mcp.callTool(name, { region: 'us-west1' });
          } catch (error) {
            if (!isAnswerError(error) || error.code !== 'invalid_tool') throw error;
            log(`${name}: refused by the client (${error.message})`);
          }
        }
      }),
    'json-schema-ref-no-deref': ({ serverUrl }) => session(serverUrl, {}, (mcp) => mcp.listTools()),
    // The focal tool's inputSchema goes back to the server exactly as the client lists it.
    'json-schema-2020-12-preservation': ({ serverUrl }) =>
      session(serverUrl, {}, async (mcp) => {
        const focal = (await mcp.listTools()).tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
        if (focal === undefined) throw new Error('the server lists no tool json_schema_2020_12_tool');
        log('json_schema_echo:', JSON.stringify(await mcp.callTool('json_schema_echo', { schema: focal.inputSchema })));
      }),
    // A skills host lists the skills and reads none of their files before one is loaded.
    'sep-2640-client-no-prefetch': ({ serverUrl }) =>
      session(serverUrl, SKILLS_HOST, async (mcp) => {
        log('skills:', (await listSkills(mcp)).map((skill) => skill.uri).join(', '));
      }),
  };
  for (const name of AUTH_SCENARIOS) flows[name] = authorized;
  // The server's skill fails the check each scenario names; loading it must refuse it before
  // any other file of the skill is read.
  for (const name of ['sep-2640-client-verify-digest', 'sep-2640-client-verify-size', 'sep-2640-client-verify-frontmatter']) {
    flows[name] = ({ serverUrl }) =>
      session(serverUrl, SKILLS_HOST, async (mcp) => {
        const [skill] = await listSkills(mcp);
        if (skill === undefined) throw new Error('the server lists no skill');
        const loading = await loadSkill(mcp, skill);
        if (loading.loaded) throw new Error(`${skill.uri} was loaded: it passed verification`);
        log(`${skill.uri} refused: ${loading.refused}`);
      });
  }
  return flows;
}

/** The auth scenarios, each a connect, a `tools/list` and a `tools/call` with the scenario's OAuth flow. */
const AUTH_SCENARIOS = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/cross-app-access-complete-flow',
  'auth/enterprise-managed-authorization',
  'auth/wif-jwt-bearer',
  'auth/dpop',
  'auth/dpop-nonce',
];
