import { expect, test } from 'vitest';
import { scan, scanEnd, scanStart } from '../src/index.js';
test('smoke', () => {
  const r = scan(scanStart(), new TextEncoder().encode('\uFEFFid: 7\r\ndata: a\r\ndata:b\n\nretry: 30\r'));
  expect(r.events).toEqual([{ type: 'message', data: 'a\nb', lastEventId: '7' }]);
  expect(r.state.retry).toBe(30);
  expect(scanEnd(r.state).events).toEqual([]);
});
