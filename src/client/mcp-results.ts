/** The MCP results `AnswerClient`'s typed calls return, as types (2025-11-25 and 2026-07-28), with no schema library: the client checks only what it reads, and a server's other fields come as sent. @module */

import type { JsonObject } from '../vocabulary/json-rpc.js';

/** An icon a server offers for a tool, a prompt or a resource. */
export interface Icon {
  /** The icon's URI: an `https:` URL or a `data:` URI. */
  readonly src: string;
  /** Its MIME type, if given. */
  readonly mimeType?: string;
  /** The sizes it serves (`"48x48"`, `"any"`), if given. */
  readonly sizes?: readonly string[];
  readonly [field: string]: unknown;
}

/** What every listed item may carry beside its own fields. */
interface Described {
  /** Its name: what a call names it by. */
  readonly name: string;
  /** A name for people, if given. */
  readonly title?: string;
  /** What it is for, if given. */
  readonly description?: string;
  /** Its icons, if any. */
  readonly icons?: readonly Icon[];
  /** The server's metadata, as sent. */
  readonly _meta?: JsonObject;
  readonly [field: string]: unknown;
}

/** A tool, as `tools/list` lists it. */
export interface Tool extends Described {
  /** A JSON Schema object of its arguments; its `x-mcp-header` annotations give a 2026 call's `Mcp-Param-*` headers. */
  readonly inputSchema: JsonObject;
  /** A JSON Schema object of its `structuredContent`, if it has one. */
  readonly outputSchema?: JsonObject;
  /** Hints about its behaviour (`readOnlyHint`, `destructiveHint`, …), as sent: the server's word, not to be trusted. */
  readonly annotations?: JsonObject;
}

/** An argument a prompt takes. */
export interface PromptArgument {
  /** The argument's name. */
  readonly name: string;
  /** What it is for, if given. */
  readonly description?: string;
  /** Whether the prompt needs it. */
  readonly required?: boolean;
  readonly [field: string]: unknown;
}

/** A prompt, as `prompts/list` lists it. */
export interface Prompt extends Described {
  /** The arguments it takes, if any. */
  readonly arguments?: readonly PromptArgument[];
}

/** A resource, as `resources/list` lists it. */
export interface Resource extends Described {
  /** Its URI: what `readResource` reads. */
  readonly uri: string;
  /** Its MIME type, if known. */
  readonly mimeType?: string;
  /** Its size in bytes, if known. */
  readonly size?: number;
}

/** A resource template, as `resources/templates/list` lists it. */
export interface ResourceTemplate extends Described {
  /** An RFC 6570 URI template. */
  readonly uriTemplate: string;
  /** The MIME type of every resource it names, if they share one. */
  readonly mimeType?: string;
}

/** The contents of a resource: text, or base64 `blob`. */
export interface ResourceContents {
  /** The URI of the resource these are the contents of. */
  readonly uri: string;
  /** Their MIME type, if known. */
  readonly mimeType?: string;
  /** The contents as text. */
  readonly text?: string;
  /** The contents as base64 bytes. */
  readonly blob?: string;
  readonly [field: string]: unknown;
}

/** One block of content: `text`, `image`, `audio`, `resource_link` or `resource`; each with its own fields. */
export interface ContentBlock {
  /** Which kind of block it is. */
  readonly type: string;
  /** For `text`. */
  readonly text?: string;
  /** For `image` and `audio`: base64. */
  readonly data?: string;
  /** For `image` and `audio`: the data's MIME type. */
  readonly mimeType?: string;
  /** For `resource`: the embedded contents. */
  readonly resource?: ResourceContents;
  readonly [field: string]: unknown;
}

/** What `tools/call` returns. `isError: true` is a result too: the tool failed, and says how. */
export interface CallToolResult {
  /** What the tool said, block by block. */
  readonly content: readonly ContentBlock[];
  /** Its result as JSON, for a tool with an `outputSchema`. */
  readonly structuredContent?: JsonObject;
  /** `true`: the tool failed, and `content` says how. */
  readonly isError?: boolean;
  /** The server's metadata, as sent. */
  readonly _meta?: JsonObject;
  readonly [field: string]: unknown;
}

/** What `resources/read` returns. */
export interface ReadResourceResult {
  /** The resource's contents: one entry, or several for a resource that holds more. */
  readonly contents: readonly ResourceContents[];
  /** The server's metadata, as sent. */
  readonly _meta?: JsonObject;
  readonly [field: string]: unknown;
}

/** One message of a prompt. */
export interface PromptMessage {
  /** Who says it. */
  readonly role: 'user' | 'assistant';
  /** What it says. */
  readonly content: ContentBlock;
  readonly [field: string]: unknown;
}

/** What `prompts/get` returns. */
export interface GetPromptResult {
  /** What the prompt is for, if given. */
  readonly description?: string;
  /** The prompt's messages, in order. */
  readonly messages: readonly PromptMessage[];
  /** The server's metadata, as sent. */
  readonly _meta?: JsonObject;
  readonly [field: string]: unknown;
}
