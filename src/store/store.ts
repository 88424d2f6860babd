// The port: what services see of the store. It holds interfaces and the types they name, and
// imports nothing from the store's rooms (test/helpers/architecture-rules.ts): the rooms import it.
// Each client's part is a file of port/; a service's test implements only the parts it uses.
import type { RecordStore } from "./port/record-store.js";
import type { HistoryStore } from "./port/history-store.js";
import type { NoticeStore, SyncStore } from "./port/sync-store.js";
import type { CareStore } from "./port/care-store.js";
import type { CloneStore } from "./port/clone-store.js";

export type * from "./port/record-store.js";
export type * from "./port/history-store.js";
export type * from "./port/sync-store.js";
export type * from "./port/care-store.js";
export type * from "./port/clone-store.js";
export type { Freshness } from "../domain/freshness.js";
export type { RemoteRefChange } from "../domain/remote-ref-notice.js";

/** The whole storage port: every client's part, as the real store (GitStore) implements it. */
export interface Store extends RecordStore, HistoryStore, NoticeStore, SyncStore, CareStore, CloneStore {}
