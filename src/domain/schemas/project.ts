import * as z from "zod/mini";
import { ROLES } from "../roles.js";
import { AssistantWord, type Known, RecordBase, ThemeName } from "./common.js";

import { PROJECT_TYPES, SCHEMA_VERSION } from "../constants.js";

export { PROJECT_TYPES, SCHEMA_VERSION };

export const FeaturesSchema = z.looseObject({
  pmSystem: z.boolean(),
  sessionTracking: z.boolean(),
  commitGuidelines: z.boolean(),
  daemonNaming: z.boolean(),
});

export const ProjectSchema = z.looseObject({
  ...RecordBase,
  schemaVersion: z.int().check(z.positive()),
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  type: z.enum(PROJECT_TYPES),
  description: z.string().check(z.maxLength(5000)),
  features: FeaturesSchema,
  customization: z.looseObject({
    personasTheme: ThemeName,
    variables: z.record(z.string(), z.string()),
  }),
  roles: z.array(z.enum(ROLES)),
  // The default assistant of `summon`: a word; whether it is one Pantheon knows is checked there.
  assistant: z.nullable(AssistantWord),
  // No command Pantheon runs is read from here (schema 2 removed `setup`; DESIGN §1.3).
  worktree: z.looseObject({ copy: z.array(z.string()) }),
});
export type Project = Known<z.infer<typeof ProjectSchema>>;
