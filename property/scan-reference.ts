/**
 * An independent reference model of WHATWG HTML "Interpreting an event stream", run over the
 * whole input at once. It shares no code with src/: it is a literal transcription of the spec,
 * written for obviousness, not speed.
 * <https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation>
 */

export type RefEvent = { type: string; data: string; lastEventId: string };

export interface RefResult {
  /** Every event dispatched, in order. */
  events: RefEvent[];
  /** The event source's "last event ID string" at the end. */
  lastEventId: string;
  /** The event stream's reconnection time, if a valid `retry` field set it. */
  retry: number | undefined;
}

/**
 * Interprets `bytes` as one whole event stream. With `dispatchIncomplete`, the text after the last
 * line end is processed as if the stream had ended with a line end and a blank line; without it,
 * that text and the pending block are discarded, as the spec says.
 */
export function referenceScan(bytes: Uint8Array, dispatchIncomplete: boolean): RefResult {
  // "The stream must then be parsed by reading everything line by line [...] Streams must be
  // decoded using the UTF-8 decode algorithm." UTF-8 decode strips one leading BOM ("One leading
  // U+FEFF BYTE ORDER MARK character must be ignored if any are present") and maps invalid
  // sequences to U+FFFD; TextDecoder with default options is exactly that, on the whole input.
  const text = new TextDecoder('utf-8').decode(bytes);

  // "Lines must be separated by either a U+000D CARRIAGE RETURN U+000A LINE FEED (CRLF)
  // character pair, a single U+000A LINE FEED (LF) character, or a single U+000D CARRIAGE
  // RETURN (CR) character." (The alternation tries CRLF first, so a CRLF is one line end.)
  const lines: string[] = [];
  const lineEnd = /\r\n|\n|\r/g;
  let from = 0;
  for (let m = lineEnd.exec(text); m !== null; m = lineEnd.exec(text)) {
    lines.push(text.slice(from, m.index));
    from = m.index + m[0].length;
  }
  const incomplete = text.slice(from);
  if (dispatchIncomplete) {
    // As if the stream went on with a line end (ending the incomplete line, if there is one) and
    // a blank line. A trailing CR has already ended its line above, so it is not joined to this
    // line end as a CRLF.
    if (incomplete !== '') lines.push(incomplete);
    lines.push('');
  }
  // Otherwise: "Once the end of the file is reached, any pending data must be discarded. (If the
  // file ends in the middle of an event, before the final empty line, the incomplete event is not
  // dispatched.)"

  const events: RefEvent[] = [];
  let dataBuffer = '';
  let eventTypeBuffer = '';
  let lastEventIdBuffer = '';
  let lastEventIdString = '';
  let retry: number | undefined;

  const dispatch = (): void => {
    // 1. "Set the last event ID string of the event source to the value of the last event ID buffer."
    lastEventIdString = lastEventIdBuffer;
    // 2. "If the data buffer is an empty string, set the data buffer and the event type buffer to
    //    the empty string and return."
    if (dataBuffer === '') {
      dataBuffer = '';
      eventTypeBuffer = '';
      return;
    }
    // 3. "If the data buffer's last character is a U+000A LINE FEED (LF) character, then remove
    //    the last character from the data buffer."
    if (dataBuffer.endsWith('\n')) dataBuffer = dataBuffer.slice(0, -1);
    // 4-6. "Initialize event's type attribute to "message", its data attribute to data, [...] and
    //    its lastEventId attribute to the last event ID string of the event source."
    //    "If the event type buffer has a value other than the empty string, change the type of the
    //    newly created event to equal the value of the event type buffer."
    events.push({
      type: eventTypeBuffer !== '' ? eventTypeBuffer : 'message',
      data: dataBuffer,
      lastEventId: lastEventIdString,
    });
    // 7. "Set the data buffer and the event type buffer to the empty string."
    dataBuffer = '';
    eventTypeBuffer = '';
  };

  const processField = (field: string, value: string): void => {
    // "The steps to process the field given a field name and a field value depend on the field
    // name [...]. Field names must be compared literally, with no case folding performed."
    if (field === 'event') {
      // "Set the event type buffer to the field value."
      eventTypeBuffer = value;
    } else if (field === 'data') {
      // "Append the field value to the data buffer, then append a single U+000A LINE FEED (LF)
      // character to the data buffer."
      dataBuffer += value + '\n';
    } else if (field === 'id') {
      // "If the field value does not contain U+0000 NULL, then set the last event ID buffer to the
      // field value. Otherwise, ignore the field."
      if (!value.includes('\u0000')) lastEventIdBuffer = value;
    } else if (field === 'retry') {
      // "If the field value consists of only ASCII digits, then interpret the field value as an
      // integer in base ten, and set the event stream's reconnection time to that integer.
      // Otherwise, ignore the field." (BigInt is the exact integer; Number() of it rounds once.)
      if (/^[0-9]+$/.test(value)) retry = Number(BigInt(value));
    }
    // "Otherwise: The field is ignored."
  };

  for (const line of lines) {
    if (line === '') {
      // "If the line is empty (a blank line): Dispatch the event, as defined below."
      dispatch();
    } else if (line.startsWith(':')) {
      // "If the line starts with a U+003A COLON character (:): Ignore the line."
      continue;
    } else if (line.includes(':')) {
      // "If the line contains a U+003A COLON character (:): Collect the characters on the line
      // before the first U+003A COLON character (:), and let field be that string. Collect the
      // characters on the line after the first U+003A COLON character (:), and let value be that
      // string. If value starts with a U+0020 SPACE character, remove it from value."
      const colon = line.indexOf(':');
      const field = line.slice(0, colon);
      let value = line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      processField(field, value);
    } else {
      // "Otherwise, the string is not empty but does not contain a U+003A COLON character (:):
      // Process the field using the whole line as the field name, and the empty string as the
      // field value."
      processField(line, '');
    }
  }

  return { events, lastEventId: lastEventIdString, retry };
}
