/**
 * The MCP results `AnswerClient`'s typed calls return, as types: what the revisions (2025-11-25
 * and 2026-07-28) define, with no schema library. A server's fields beyond these are kept, as
 * sent; the client checks only what it reads (a list is an array, a result an object).
 * @module
 */

import type { JsonObject } from '../vocabulary/json-rpc.js';

/** An icon a server offers for a tool, a prompt or a resource. */
export interface Icon {
  readonly src: string;
  readonly mimeType?: string;
  readonly sizes?: readonly string[];
  readonly [field: string]: unknown;
}

/** What every listed item may carry beside its own fields. */
interface Described {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly icons?: readonly Icon[];
  readonly _meta?: JsonObject;
  readonly [field: string]: unknown;
}

/** A tool, as `tools/list` lists it. */
export interface Tool extends Described {
  /** A JSON Schema object of its arguments; its `x-mcp-header` annotations give a 2026 call's `Mcp-Param-*` headers. */
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject;
  readonly annotations?: JsonObject;
}

/** An argument a prompt takes. */
export interface PromptArgument {
  readonly name: string;
  readonly description?: string;
  readonly required?: boolean;
  readonly [field: string]: unknown;
}

/** A prompt, as `prompts/list` lists it. */
export interface Prompt extends Described {
  readonly arguments?: readonly PromptArgument[];
}

/** A resource, as `resources/list` lists it. */
export interface Resource extends Described {
  readonly uri: string;
  readonly mimeType?: string;
  readonly size?: number;
}

/** A resource template, as `resources/templates/list` lists it. */
export interface ResourceTemplate extends Described {
  /** An RFC 6570 URI template. */
  readonly uriTemplate: string;
  readonly mimeType?: string;
}

/** The contents of a resource: text, or base64 `blob`. */
export interface ResourceContents {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text?: string;
  readonly blob?: string;
  readonly [field: string]: unknown;
}

/** One block of content: `text`, `image`, `audio`, `resource_link` or `resource`; each with its own fields. */
export interface ContentBlock {
  readonly type: string;
  /** For `text`. */
  readonly text?: string;
  /** For `image` and `audio`: base64. */
  readonly data?: string;
  readonly mimeType?: string;
  /** For `resource`: the embedded contents. */
  readonly resource?: ResourceContents;
  readonly [field: string]: unknown;
}

/** What `tools/call` returns. `isError: true` is a result too: the tool failed, and says how. */
export interface CallToolResult {
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: JsonObject;
  readonly isError?: boolean;
  readonly _meta?: JsonObject;
  readonly [field: string]: unknown;
}

/** What `resources/read` returns. */
export interface ReadResourceResult {
  readonly contents: readonly ResourceContents[];
  readonly _meta?: JsonObject;
  readonly [field: string]: unknown;
}

/** One message of a prompt. */
export interface PromptMessage {
  readonly role: 'user' | 'assistant';
  readonly content: ContentBlock;
  readonly [field: string]: unknown;
}

/** What `prompts/get` returns. */
export interface GetPromptResult {
  readonly description?: string;
  readonly messages: readonly PromptMessage[];
  readonly _meta?: JsonObject;
  readonly [field: string]: unknown;
}
