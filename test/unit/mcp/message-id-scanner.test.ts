import { describe, expect, it } from "vitest";
import { MessageIdScanner } from "../../../src/mcp/message-id-scanner.js";

/** Feeds `text` in pieces of `step` bytes, as a pipe delivers it. */
function scan(text: string, step = 7): string | number | null {
  const s = new MessageIdScanner();
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += step) s.feed(bytes.subarray(i, i + step));
  return s.id();
}

describe("MessageIdScanner", () => {
  it("finds the top-level id wherever it is, never one inside params or a string", () => {
    const params = { name: "note", arguments: { id: "ENG-H-0001", text: 'say "id": 9, {"id":8}' } };
    // The SDK's client writes method, params, jsonrpc, then the id.
    expect(scan(JSON.stringify({ method: "tools/call", params, jsonrpc: "2.0", id: 42 }))).toBe(42);
    expect(scan(JSON.stringify({ jsonrpc: "2.0", id: "req-7", method: "tools/call", params }))).toBe("req-7");
    expect(scan(`{ "jsonrpc" : "2.0" , "id" : 5 , "method":"x"}`, 1)).toBe(5);
    expect(scan(`{"params":{"id":3,"x":[{"id":4}]},"id":"a\\"b"}`)).toBe('a"b');
    expect(scan(`{"method":"x","params":{"text":"é€😀 \\\\"},"id":6}`, 1)).toBe(6);
  });

  it("gives null without a usable id: none, an object, a batch, a cut message, a huge one", () => {
    expect(scan(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }))).toBeNull();
    expect(scan(`{"id":{"n":1},"method":"x"}`)).toBeNull();
    expect(scan(`[{"id":1,"method":"x"}]`)).toBeNull();
    expect(scan(`{"method":"x","params":{"text":"aaaa`)).toBeNull();
    expect(scan(`{"id":"${"x".repeat(500)}","method":"x"}`)).toBeNull();
    expect(scan(`{"id":nope}`)).toBeNull();
    // Cut right after its id's value: still named.
    expect(scan(`{"jsonrpc":"2.0","id":12`)).toBe(12);
  });
});
