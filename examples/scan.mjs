// The scanner on its own: bytes in, events out, as a pure reducer. Chunks may split anything —
// a UTF-8 character, a CRLF — and old states stay valid.
import { scan, scanEnd, scanStart } from 'sse-answer';

const bytes = new TextEncoder().encode(
  ': keep-alive\r\nid: 7\r\nretry: 3000\r\ndata:\r\n\r\nevent: message\r\ndata: {"jsonrpc":"2.0",\r\ndata: "id":1,"result":{"text":"h\u00e9llo \ud83d\ude80"}}\r\n\r\n',
);

let state = scanStart();
const events = [];
for (let i = 0; i < bytes.length; i += 5) {
  // Five-byte chunks: the é, the emoji and every CRLF are split somewhere.
  const result = scan(state, bytes.subarray(i, i + 5));
  state = result.state;
  events.push(...result.events);
}
events.push(...scanEnd(state).events);

console.log(events);
// [
//   { type: 'message', data: '', lastEventId: '7' },
//   { type: 'message', data: '{"jsonrpc":"2.0",\n"id":1,"result":{"text":"héllo 🚀"}}', lastEventId: '7' }
// ]
console.log({ lastEventId: state.lastEventId, retry: state.retry }); // { lastEventId: '7', retry: 3000 }
