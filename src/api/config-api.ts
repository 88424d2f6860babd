import { configSetView, configShowView, type ConfigSetView, type ConfigShowView } from "../render/config-view.js";
import { setSetting, showSettings } from "../services/project/project-settings.js";
import type { CallOptions, ContextFactory } from "./api-context.js";

/** The project's settings (`project.json` on the state ref) and this clone's git config ones. */
export interface ConfigApi {
  /** `config show`: the settings as the YAML `init --config` reads, and this clone's `pantheon.*` git config. */
  show(o?: CallOptions): Promise<ConfigShowView>;
  /**
   * `config set KEY VALUE`: one setting by its YAML path (`customization.personas_theme`,
   * `roles`, `features.commit_guidelines`...), validated as init validates it; one commit, none
   * when it already has that value.
   */
  set(key: string, value: string, o?: CallOptions): Promise<ConfigSetView>;
}

export function configApi(contexts: ContextFactory): ConfigApi {
  return {
    show: async (o) => configShowView(await showSettings(contexts.for(o))),
    set: async (key, value, o) => configSetView(await setSetting(contexts.for(o), key, value)),
  };
}
