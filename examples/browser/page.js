// @ts-check
// The page's one module script: AnswerClient from the built package ('sse-answer' is mapped to
// /dist/index.js by the page's import map). Server text only ever goes into textContent.
import { AnswerClient, isAnswerError } from 'sse-answer';

/** @typedef {{ name: string, description?: string, inputSchema?: { properties?: Record<string, { type?: string, examples?: unknown[], default?: unknown }> } }} Tool */

/**
 * @template {HTMLElement} T
 * @param {string} id
 * @param {{ new (): T }} type
 * @returns {T}
 */
function element(id, type) {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`the page has no #${id}`);
  return found;
}

const main = /** @type {HTMLElement} */ (document.querySelector('main'));
const connectForm = element('connect-form', HTMLFormElement);
const serverUrl = element('server-url', HTMLInputElement);
const token = element('token', HTMLInputElement);
const connectButton = element('connect', HTMLButtonElement);
const closeButton = element('close', HTMLButtonElement);
const status = element('status', HTMLElement);
const errorBox = element('error', HTMLElement);
const errorCode = element('error-code', HTMLElement);
const errorMessage = element('error-message', HTMLElement);
const session = element('session', HTMLElement);
const toolList = element('tools', HTMLUListElement);
const callForm = element('call-form', HTMLFormElement);
const toolSelect = element('tool', HTMLSelectElement);
const argumentsInput = element('arguments', HTMLTextAreaElement);
const argumentsInvalid = element('arguments-invalid', HTMLElement);
const callButton = element('call', HTMLButtonElement);
const progress = element('progress', HTMLProgressElement);
const progressMessage = element('progress-message', HTMLElement);
const messages = element('messages', HTMLOListElement);
const answer = element('answer', HTMLElement);

/** @type {AnswerClient | undefined} */
let client;
/** @type {Tool[]} */
let tools = [];
let calls = 0;

/** Longer server text is cut here: the page shows it, it does not keep it. */
const SHOWN = 400;
const shown = (/** @type {string} */ text) => (text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text);

/**
 * Runs one action with the buttons disabled; its failure goes to the error box. `data-state`
 * on <main> says where the page is: busy, then the action's own state or `failed`.
 * @param {string} doing
 * @param {() => Promise<string>} action resolves with the state it leaves the page in
 */
async function run(doing, action) {
  main.dataset['state'] = 'busy';
  main.setAttribute('aria-busy', 'true');
  errorBox.hidden = true;
  status.textContent = doing;
  syncButtons(true);
  try {
    main.dataset['state'] = await action();
  } catch (error) {
    showError(error);
    main.dataset['state'] = 'failed';
  } finally {
    main.removeAttribute('aria-busy');
    syncButtons(false);
  }
}

/** @param {boolean} busy */
function syncButtons(busy) {
  connectButton.disabled = busy;
  closeButton.disabled = busy || client === undefined;
  callButton.disabled = busy || client === undefined || tools.length === 0;
}

/** @param {unknown} error */
function showError(error) {
  if (isAnswerError(error)) {
    errorCode.textContent = error.code;
    errorMessage.textContent = error.message;
  } else {
    errorCode.textContent = error instanceof Error ? error.name : 'Error';
    errorMessage.textContent = error instanceof Error ? error.message : String(error);
  }
  errorBox.hidden = false;
  status.textContent = client === undefined ? 'Not connected.' : 'Connected; the last action failed.';
}

/**
 * Every tool the server lists, page by page.
 * @param {AnswerClient} connected
 * @returns {Promise<Tool[]>}
 */
async function allTools(connected) {
  /** @type {Tool[]} */
  const found = [];
  /** @type {unknown} */
  let cursor;
  const seen = new Set(); // a server that hands back a cursor it gave before would page forever
  do {
    seen.add(cursor);
    const listed = await connected.request('tools/list', typeof cursor === 'string' ? { cursor } : {});
    if ('error' in listed) throw new Error(`tools/list was answered with the JSON-RPC error ${shown(JSON.stringify(listed.error))}`);
    const result = /** @type {{ tools?: Tool[], nextCursor?: unknown }} */ (listed.result);
    found.push(...(result.tools ?? []));
    cursor = result.nextCursor;
  } while (typeof cursor === 'string' && !seen.has(cursor));
  return found;
}

/** @param {AnswerClient} connected */
function negotiatedBy(connected) {
  const how = connected.negotiatedBy;
  switch (how.by) {
    case 'discover':
      return 'server/discover';
    case 'initialize':
      return how.refusal === undefined ? 'initialize' : `initialize, after server/discover was refused (${shown(how.refusal)})`;
    case 'pin':
      return 'a pinned version';
    default:
      return 'no handshake';
  }
}

async function connect() {
  // A session the earlier server would not end is left to its expiry: it does not stop this connect.
  await closeClient().catch(() => undefined);
  const bearer = token.value;
  client = await AnswerClient.connect(serverUrl.value.trim(), bearer === '' ? {} : { authProvider: { token: async () => bearer } });
  element('era', HTMLElement).textContent = client.era;
  element('protocol-version', HTMLElement).textContent = client.protocolVersion ?? '(none)';
  element('negotiated-by', HTMLElement).textContent = negotiatedBy(client);
  element('session-id', HTMLElement).textContent = client.sessionId ?? 'none';
  session.hidden = false;
  clearCall();
  showTools(await allTools(client));
  status.textContent = `Connected: ${client.era === 'modern' ? 'the stateless era' : 'the 2025 era'}, ${client.protocolVersion ?? 'no version'}, ${tools.length} tool${tools.length === 1 ? '' : 's'}.`;
  return 'connected';
}

/** @param {Tool[]} listed */
function showTools(listed) {
  const before = toolSelect.value;
  tools = listed;
  toolList.replaceChildren(...tools.map((tool) => {
    const item = document.createElement('li');
    const name = document.createElement('code');
    name.textContent = tool.name;
    item.append(name, tool.description === undefined ? '' : ` — ${shown(tool.description)}`);
    return item;
  }));
  toolSelect.replaceChildren(...tools.map((tool) => new Option(tool.name, tool.name)));
  if (tools.some((tool) => tool.name === before)) toolSelect.value = before;
  fillExample();
}

/** The arguments textarea, filled with an example of the chosen tool's input. */
function fillExample() {
  const tool = tools.find((candidate) => candidate.name === toolSelect.value);
  const properties = tool?.inputSchema?.properties ?? {};
  const example = Object.fromEntries(Object.entries(properties).map(([key, schema]) => {
    const byType = schema.type === 'number' || schema.type === 'integer' ? 5 : schema.type === 'boolean' ? true : schema.type === 'string' ? 'hello' : null;
    return [key, schema.examples?.[0] ?? schema.default ?? byType];
  }));
  argumentsInput.value = JSON.stringify(example);
  argumentsInvalid.textContent = '';
  argumentsInput.removeAttribute('aria-invalid');
}

function clearCall() {
  messages.replaceChildren();
  answer.textContent = '';
  progress.max = 1;
  progress.value = 0;
  progressMessage.textContent = '';
}

/**
 * One message passed over before the answer: listed, and drawn on the bar when it is this call's progress.
 * @param {import('sse-answer').JsonRpcMessage} message
 * @param {string} progressToken
 */
function passedOver(message, progressToken) {
  const params = 'params' in message && typeof message.params === 'object' && message.params !== null && !Array.isArray(message.params) ? message.params : {};
  const item = document.createElement('li');
  const method = document.createElement('code');
  method.textContent = 'method' in message ? String(message.method) : 'a response to another request';
  let text = JSON.stringify(params);
  if ('method' in message && message.method === 'notifications/message') {
    text = `${String(params['level'])}: ${typeof params['data'] === 'string' ? params['data'] : JSON.stringify(params['data'])}`;
  }
  item.append(method, ` ${shown(text)}`);
  messages.append(item);
  if ('method' in message && message.method === 'notifications/progress' && params['progressToken'] === progressToken) {
    const done = Number(params['progress']);
    const total = Number(params['total']);
    if (total > 0) {
      progress.max = total;
      progress.value = done;
    } else {
      progress.removeAttribute('value'); // no total: indeterminate
    }
    const said = params['message'];
    progressMessage.textContent = typeof said === 'string' ? shown(said) : total > 0 ? `${done} of ${total}` : String(done);
  }
}

async function call() {
  const connected = client;
  if (connected === undefined) throw new Error('not connected');
  /** @type {unknown} */
  let args;
  try {
    args = JSON.parse(argumentsInput.value);
    if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new Error('the arguments must be a JSON object');
  } catch (error) {
    argumentsInvalid.textContent = error instanceof Error ? error.message : String(error);
    argumentsInput.setAttribute('aria-invalid', 'true');
    argumentsInput.focus();
    status.textContent = 'The arguments are not a JSON object.';
    return 'connected';
  }
  argumentsInvalid.textContent = '';
  argumentsInput.removeAttribute('aria-invalid');
  clearCall();
  const name = toolSelect.value;
  const progressToken = `page-${(calls += 1)}`;
  const params = { name, arguments: /** @type {import('sse-answer').JsonObject} */ (args), _meta: { progressToken } };
  const answered = await connected.request('tools/call', params, { onMessage: (message) => passedOver(message, progressToken) });
  answer.textContent = JSON.stringify('error' in answered ? answered : answered.result, null, 2);
  status.textContent = 'error' in answered ? `${name} was answered with a JSON-RPC error.` : `${name} answered.`;
  return 'answered';
}

/** Closes the client, if any: a 2025 session is ended with a DELETE. Resolves with what to say. */
async function closeClient() {
  const closing = client;
  if (closing === undefined) return 'Not connected.';
  client = undefined;
  tools = [];
  session.hidden = true;
  const ended = await closing.close(); // the client is closed even when its DELETE failed
  return ended === undefined ? 'Closed: there was no session to end.' : `Closed: the DELETE ended the session (${ended}).`;
}

connectForm.addEventListener('submit', (event) => {
  event.preventDefault();
  void run('Connecting…', connect);
});
callForm.addEventListener('submit', (event) => {
  event.preventDefault();
  void run(`Calling ${toolSelect.value}…`, call);
});
closeButton.addEventListener('click', () => {
  void run('Closing…', async () => {
    status.textContent = await closeClient();
    return 'closed';
  });
});
toolSelect.addEventListener('change', fillExample);

serverUrl.value = new URLSearchParams(location.search).get('url') ?? '';
status.textContent = 'Not connected.';
syncButtons(false);
main.dataset['state'] = 'ready';
