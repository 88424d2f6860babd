import { StateLostError } from "../../errors.js";
import type { Store } from "../../store/store.js";

/**
 * A clone without its ref is a fresh clone only when no reflog names a state it held (DESIGN
 * §3.2). One that lost its ref (`git update-ref -d` by mistake) refuses to adopt a remote's
 * state or start a new one: either would leave its unpublished work reachable from nothing but
 * a reflog. `pantheon doctor --recover` brings it back, and a sync then merges the remote's.
 */
export async function refuseLostRef(store: Store): Promise<void> {
  const tip = (await store.lostTips())[0];
  if (tip) throw new StateLostError(tip);
}
