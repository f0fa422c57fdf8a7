// MCP clients end to end, in both eras: AnswerClient against the v2 SDK's Client (over its own
// transport and over AnswerTransport) and the AI SDK's createMCPClient (likewise), each talking
// to two servers in processes of their own on loopback: one that answers at once
// (clients-server-instant.mjs), whose figures are the clients' own cost, and the v2 SDK server
// (clients-server-sdk.mjs), which is what a user sees. For each server and era (2026-07-28
// stateless, 2025-11-25 with sessions), three measures, each a ratio of two sides:
//   calls    sequential small tools/call on one connected client, calls a second
//   connect  a fresh client's connect and first tools/call (the close after it not timed)
//   memory   the heap a connected client keeps after its calls, its modules included, each
//            side in a fresh process (clients-memory.mjs); peak RSS recorded beside it
// Figure ids: clients-<measure>-<server>-<era>.<a>/<b>, a's throughput over b's (memory: a's heap
// over b's). Run as its own process (node-suite.mjs does): `--json MODE [--figures ID,ID]
// [--handicap-client F]` prints the record as one JSON line; with --figures, only what those
// figures need is measured.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { ERAS, SIDES, textOf } from './clients-sides.mjs';
import { median, settingsFor } from './harness.mjs';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));

/** The servers, each in a process of its own. */
export const SERVERS = [
  { id: 'instant', label: 'a node:http server that answers at once', script: './clients-server-instant.mjs' },
  { id: 'official', label: 'the v2 SDK server (@modelcontextprotocol/server 2.4.0)', script: './clients-server-sdk.mjs' },
];

export const MEASURES = ['calls', 'connect', 'memory'];

/** The ratios each measure gives, `[of, to]`: AnswerClient over every other side, and each SDK's client over AnswerTransport over its own transport. */
export const PAIRS = [
  ['answerClient', 'sdk'],
  ['answerClient', 'sdkAnswer'],
  ['answerClient', 'aiSdk'],
  ['answerClient', 'aiSdkAnswer'],
  ['sdkAnswer', 'sdk'],
  ['aiSdkAnswer', 'aiSdk'],
];

/** The id of a figure: `clients-calls-instant-2026.answerClient/sdk`. */
export const figureId = (measure, server, era, of, to) => `clients-${measure}-${server}-${era}.${of}/${to}`;

/** Every figure the case makes. */
export const FIGURES = MEASURES.flatMap((measure) => SERVERS.flatMap((server) => ERAS.flatMap((era) => PAIRS.map(([of, to]) => figureId(measure, server.id, era.id, of, to)))));

/**
 * What `figures` need measured (every figure when undefined): `[{ server, era, measures }]`, a
 * server and era each, `measures` the sides each measure reads (`{ calls: [...] }`), in SIDES'
 * order, so that every process reads them in the same order. Throws for an id the case does not make.
 */
export function wanted(figures = FIGURES) {
  const out = new Map();
  for (const id of figures) {
    if (!FIGURES.includes(id)) throw new Error(`the client benchmark makes no figure ${id}`);
    const [, measure, server, era, of, to] = /^clients-(\w+)-(\w+)-(\d+)\.(\w+)\/(\w+)$/.exec(id);
    const key = `${server} ${era}`;
    if (!out.has(key)) out.set(key, { server, era, measures: {} });
    const sides = new Set([...(out.get(key).measures[measure] ?? []), of, to]);
    out.get(key).measures[measure] = SIDES.map((s) => s.id).filter((side) => sides.has(side));
  }
  return [...out.values()];
}

/**
 * Makes the harness's AnswerClient slower by `fraction` (`--handicap-client`, for the gate's own
 * quality): after each timed operation, busy-waits `fraction` of the time it took.
 */
function handicap(fraction, started) {
  if (!fraction) return;
  const until = performance.now() + (performance.now() - started) * fraction;
  while (performance.now() < until);
}

/** The order of the sides in turn (or round) `i`: every other one reversed, so that no side always goes first. */
const turn = (sides, i) => (i % 2 ? [...sides].reverse() : sides);

/**
 * One round of calls: a connected client a side, the sides taking turns, each turn a block of
 * `blockCalls` sequential calls a side. Resolves with each side's block times (ms), one a turn,
 * and its process's CPU time a call over the round (µs). A turn takes a few milliseconds, so the
 * blocks of one turn run under the same conditions, and a ratio is taken turn by turn.
 */
async function callsRound(sides, connect, url, era, { turns, blockCalls }, slowdown) {
  const clients = {};
  const times = Object.fromEntries(sides.map((id) => [id, []]));
  const cpu = Object.fromEntries(sides.map((id) => [id, 0]));
  try {
    for (const id of sides) clients[id] = await connect[id](url, era);
    for (let i = 0; i < turns; i++) {
      for (const id of turn(sides, i)) {
        const client = clients[id];
        const used = process.cpuUsage();
        const start = performance.now();
        for (let call = 0; call < blockCalls; call++) {
          const started = performance.now();
          await client.call();
          handicap(slowdown[id], started);
        }
        times[id].push(performance.now() - start);
        const { user, system } = process.cpuUsage(used);
        cpu[id] += user + system;
      }
    }
  } finally {
    for (const client of Object.values(clients)) await client.close();
  }
  return Object.fromEntries(sides.map((id) => [id, { times: times[id], cpu: cpu[id] / (turns * blockCalls) }]));
}

/** One round of connects: `count` turns, each a fresh client a side; each side's times (ms) to connect and make the first call. Each close follows, not timed. */
async function connectRound(sides, connect, url, era, count, slowdown) {
  const times = Object.fromEntries(sides.map((id) => [id, []]));
  for (let i = 0; i < count; i++) {
    for (const id of turn(sides, i)) {
      const started = performance.now();
      const client = await connect[id](url, era);
      try {
        await client.call();
        handicap(slowdown[id], started);
        times[id].push(performance.now() - started);
      } finally {
        await client.close();
      }
    }
  }
  return times;
}

/** One client's memory in a fresh process of this Node (clients-memory.mjs). */
function memoryOf(side, url, era, calls) {
  const child = spawnSync(process.execPath, ['--expose-gc', here('./clients-memory.mjs'), side, url, era.id, String(calls)], { encoding: 'utf8', timeout: 120_000 });
  if (child.status !== 0) throw new Error(`clients-memory.mjs ${side} exited ${child.status ?? child.signal}: ${child.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1));
}

/** Starts a server's process; it exits when this process's end of its stdin closes. */
async function startServer(server) {
  const child = spawn(process.execPath, [here(server.script)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [first] = await once(child.stdout, 'data');
  return { child, base: `http://127.0.0.1:${String(first).trim()}` };
}

/** The requests a server saw since it was last asked. */
const requestsSeen = async (base) => (await fetch(`${base}/requests`)).json();

const WHAT = { calls: 'calls a second', connect: 'connect and first call', memory: 'heap kept by a connected client' };

/** Measures one server in one era: the sides' records, and the figures of `want` (`wanted()`'s entry). */
async function measureEra(want, server, base, connect, settings, slowdown, figures) {
  const c = settings.clients;
  const era = ERAS.find((e) => e.id === want.era);
  const url = `${base}${era.path}`;
  const callSides = want.measures.calls ?? [];
  const connectSides = want.measures.connect ?? [];
  const memorySides = want.measures.memory ?? [];
  const timed = SIDES.map((s) => s.id).filter((id) => callSides.includes(id) || connectSides.includes(id));
  const sides = Object.fromEntries(SIDES.filter((s) => timed.includes(s.id) || memorySides.includes(s.id)).map((s) => [s.id, { label: s.label }]));
  // Each side once, checked: the era it settled, the answer, and what it sent the server.
  for (const id of timed) {
    await requestsSeen(base);
    const client = await connect[id](url, era);
    const answer = await client.call();
    const version = client.version();
    await client.close();
    if (version !== era.version) throw new Error(`${id} settled ${version} with ${server.id}${era.path}, not ${era.version}`);
    if (textOf(answer) !== 'hi') throw new Error(`${id}: the call's answer was ${JSON.stringify(answer).slice(0, 200)}`);
    sides[id].requests = await requestsSeen(base);
  }
  // Warm every side until the engine has compiled its paths: a client's first few hundred calls
  // run code not yet optimized, and rounds among them would time the compiler.
  for (let round = 0; round < c.warmRounds; round++) {
    if (callSides.length > 0) await callsRound(turn(callSides, round), connect, url, era, c, {});
    if (connectSides.length > 0) await connectRound(turn(connectSides, round), connect, url, era, c.connects, {});
  }
  // Each side's block times, turn by turn across the rounds, and its CPU time a call, a round.
  const calls = Object.fromEntries(callSides.map((id) => [id, { times: [], cpu: [] }]));
  const connects = Object.fromEntries(connectSides.map((id) => [id, []]));
  const slow = { answerClient: slowdown };
  for (let round = 0; round < c.rounds; round++) {
    if (callSides.length > 0) {
      for (const [id, { times, cpu }] of Object.entries(await callsRound(turn(callSides, round), connect, url, era, c, slow))) {
        calls[id].times.push(...times);
        calls[id].cpu.push(cpu);
      }
    }
    if (connectSides.length > 0) for (const [id, times] of Object.entries(await connectRound(turn(connectSides, round), connect, url, era, c.connects, slow))) connects[id].push(...times);
  }
  const memory = Object.fromEntries(memorySides.map((id) => [id, []]));
  const nodeAlone = [];
  for (let round = 0; round < c.memoryProcesses && memorySides.length > 0; round++) {
    nodeAlone.push(memoryOf('none', url, era, 0).rss);
    for (const id of turn(memorySides, round)) memory[id].push(memoryOf(id, url, era, c.memoryCalls));
  }
  for (const id of callSides) Object.assign(sides[id], { callsPerSecond: (1000 * c.blockCalls) / median(calls[id].times), cpuPerCall: median(calls[id].cpu) });
  for (const id of connectSides) Object.assign(sides[id], { connectsPerSecond: 1000 / median(connects[id]) });
  for (const id of memorySides) Object.assign(sides[id], { heap: median(memory[id].map((m) => m.heap)), rss: median(memory[id].map((m) => m.rss)), memory: memory[id] });
  // A speed figure's samples are its turns, b's time over a's in the same turn (`size` a round);
  // a memory figure's, its processes.
  const ratios = {
    calls: (of, to) => ({ samples: calls[to].times.map((t, i) => t / calls[of].times[i]), size: c.turns }),
    connect: (of, to) => ({ samples: connects[to].map((t, i) => t / connects[of][i]), size: c.connects }),
    memory: (of, to) => ({ samples: memory[of].map((m, i) => m.heap / memory[to][i].heap), size: 1 }),
  };
  const made = [];
  for (const [measure, among] of Object.entries(want.measures)) {
    for (const [of, to] of PAIRS.filter(([of, to]) => among.includes(of) && among.includes(to))) {
      const id = figureId(measure, server.id, era.id, of, to);
      if (!figures.includes(id)) continue;
      const { samples, size } = ratios[measure](of, to);
      // The figure is the median over every turn; the file keeps each round's median, not every turn.
      const rounds = Array.from({ length: samples.length / size }, (_, i) => median(samples.slice(i * size, (i + 1) * size)));
      made.push({ id, label: `${era.version}, ${WHAT[measure]}: ${sides[of].label} ÷ ${sides[to].label}`, value: median(samples), rounds, ...(size > 1 ? { turns: samples.length } : {}), ...(measure === 'memory' ? { lowerIsBetter: true } : {}) });
    }
  }
  return { era: { version: era.version, sides, ...(nodeAlone.length > 0 ? { nodeRss: median(nodeAlone) } : {}) }, figures: made };
}

async function main(settings, figures = FIGURES, slowdown = 0) {
  const c = settings.clients;
  const record = {
    id: 'clients',
    group: 'clients',
    title: 'MCP clients end to end, in both eras',
    about: `each client against each server in another process on loopback, in 2026-07-28 (stateless) and 2025-11-25 (sessions): sequential small tool calls on one connected client, ${c.turns} turns of ${c.blockCalls} calls a side a round; ${c.connects} fresh clients' connect and first call a side a round; ${c.rounds} rounds after ${c.warmRounds} untimed, each ratio the median over turns; the heap a connected client keeps after ${c.memoryCalls} calls, in a fresh process a side (${c.memoryProcesses} a side)`,
    settings: c,
    servers: {},
    figures: [],
  };
  const plan = wanted(figures);
  // The smoke pass measures memory against the first server and era only: each fresh process
  // runs the code the timed rounds run everywhere, and costs a second or two.
  if (!c.memoryEverywhere) for (const w of plan.filter((w) => w.measures.memory).slice(1)) delete w.measures.memory;
  const connect = {};
  for (const id of new Set(plan.flatMap((w) => Object.values(w.measures).flat()))) connect[id] = await SIDES.find((s) => s.id === id).load();
  const running = [];
  try {
    for (const server of SERVERS.filter((s) => plan.some((w) => w.server === s.id))) {
      const started = await startServer(server);
      running.push(started.child);
      record.servers[server.id] = { label: server.label, eras: {} };
      for (const want of plan.filter((w) => w.server === server.id)) {
        const measured = await measureEra(want, server, started.base, connect, settings, slowdown, figures);
        record.servers[server.id].eras[want.era] = measured.era;
        record.figures.push(...measured.figures);
      }
    }
  } finally {
    for (const child of running) child.kill();
  }
  return record;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const option = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
  const mode = option('--json') ?? 'full';
  console.log(JSON.stringify(await main(settingsFor(mode), option('--figures')?.split(','), Number(option('--handicap-client') ?? 0))));
}
