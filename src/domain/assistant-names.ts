/**
 * The one list of the assistants Pantheon knows, in order of preference (`summon` without a
 * choice starts the first one installed). It lives in the domain because the project config's
 * schema checks `assistant` against it, and the domain imports nothing above it; the adapter
 * registry (assistants/registry.ts) is typed as one adapter per name, so a name without an
 * adapter, or an adapter without a name, is a compile error there.
 */
export const ASSISTANT_NAMES = ["claude", "opencode", "codex", "gemini"] as const;
export type AssistantName = (typeof ASSISTANT_NAMES)[number];
