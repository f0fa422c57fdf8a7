// A host of the skills extension (SEP-2640, `io.modelcontextprotocol/skills`), as far as the
// suite's client scenarios ask: the skills are listed (`skills/list`) and none of their files
// read until a skill is loaded; loading reads its SKILL.md and verifies it against the entry it
// was listed with — byte size, digest, frontmatter field by field — before any other file of
// the skill is read. A skill that fails is refused and never used.
import { createHash } from 'node:crypto';

/** The extension's identifier, which a host declares among its capabilities. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/**
 * The skills the server lists.
 * @param {import('./flows.mjs').McpSession} mcp
 * @returns {Promise<{ uri: string, frontmatter?: Record<string, unknown>, resources?: { uri: string, digest?: string, size?: number }[] }[]>}
 */
export async function listSkills(mcp) {
  const result = await mcp.request('skills/list', {});
  if (!Array.isArray(result?.skills)) throw new Error(`skills/list answered no skills array: ${JSON.stringify(result).slice(0, 200)}`);
  return result.skills;
}

/**
 * Loads a skill: its SKILL.md read and verified, then its other files, each verified too.
 * @returns {Promise<{ loaded: true, files: Map<string, string> } | { loaded: false, refused: string }>}
 */
export async function loadSkill(mcp, skill) {
  const files = new Map();
  const entries = skill.resources ?? [];
  const main = entries.find((entry) => entry.uri === skill.uri) ?? { uri: skill.uri };
  // SKILL.md first: nothing else of the skill is read unless it proves to be what was listed.
  for (const entry of [main, ...entries.filter((other) => other !== main)]) {
    const text = await readText(mcp, entry.uri);
    const refused = verify(entry, text) ?? (entry === main ? compareFrontmatter(skill.frontmatter, text) : undefined);
    if (refused !== undefined) return { loaded: false, refused: `${entry.uri}: ${refused}` };
    files.set(entry.uri, text);
  }
  return { loaded: true, files };
}

async function readText(mcp, uri) {
  const result = await mcp.readResource(uri);
  const content = result?.contents?.find((item) => item.uri === uri) ?? result?.contents?.[0];
  if (typeof content?.text !== 'string') throw new Error(`resources/read ${uri} answered no text`);
  return content.text;
}

/** Why `text` is not the file `entry` lists: its size, else its digest (`sha256:<hex>`). */
function verify(entry, text) {
  const bytes = Buffer.from(text, 'utf8');
  if (entry.size !== undefined && bytes.length !== entry.size) return `${bytes.length} bytes where ${entry.size} were listed`;
  if (entry.digest !== undefined) {
    const [algorithm, expected] = String(entry.digest).split(':', 2);
    if (algorithm !== 'sha256') return `digest algorithm ${algorithm} is not one this host verifies`;
    const actual = createHash('sha256').update(bytes).digest('hex');
    if (actual !== expected) return `digest sha256:${actual} where ${entry.digest} was listed`;
  }
  return undefined;
}

/** Why the frontmatter of `text` differs from what the skill was listed with, field by field. */
function compareFrontmatter(listed, text) {
  if (listed === undefined) return undefined;
  const block = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (block === null) return 'it has no frontmatter';
  // The scalar `key: value` lines a SKILL.md's frontmatter holds; nested YAML is not read here.
  const found = Object.fromEntries(block[1].split(/\r?\n/).flatMap((line) => {
    const field = /^([A-Za-z0-9_-]+):\s*(.*?)\s*$/.exec(line);
    return field === null ? [] : [[field[1], field[2].replace(/^(["'])(.*)\1$/, '$2')]];
  }));
  for (const [key, value] of Object.entries(listed)) {
    if (typeof value !== 'string') continue;
    if (found[key] !== value) return `frontmatter ${key} is ${JSON.stringify(found[key])} where ${JSON.stringify(value)} was listed`;
  }
  return undefined;
}
