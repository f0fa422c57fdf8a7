// The user behind both conformance clients: what they answer when a server asks for input.
// A form (`elicitation/create`) is accepted as it is shown, its fields pre-filled with the
// schema's defaults (SEP-1034: a client SHOULD pre-populate them), a yes/no question without
// one answered yes; the client's roots are none; no model is at hand for sampling.

/**
 * The content a user accepts a form with: each field's default, a boolean without one `true`.
 * @param {unknown} requestedSchema
 * @returns {Record<string, unknown>}
 */
export function acceptedForm(requestedSchema) {
  const properties = isRecord(requestedSchema) && isRecord(requestedSchema['properties']) ? requestedSchema['properties'] : {};
  const content = {};
  for (const [name, field] of Object.entries(properties)) {
    if (!isRecord(field)) continue;
    if (field['default'] !== undefined) content[name] = field['default'];
    else if (field['type'] === 'boolean') content[name] = true;
  }
  return content;
}

/**
 * The user's answer to a server's request for input, by method; what the user cannot answer
 * throws, and the client reports it as it says it does.
 * @param {{ method: string, params?: Record<string, unknown> }} request
 */
export function answerInput({ method, params }) {
  switch (method) {
    case 'elicitation/create':
      return { action: 'accept', content: acceptedForm(params?.['requestedSchema']) };
    case 'roots/list':
      return { roots: [] };
    default:
      throw new Error(`the user does not answer ${method}`);
  }
}

function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
