import * as z from "zod/mini";
import { ROLES } from "../roles.js";
import { type Known, RecordBase } from "./common.js";

import { PERSONA_NAME } from "../constants.js";

export { PERSONA_NAME };

export const PersonaName = z.string().check(z.regex(PERSONA_NAME));

/** Optional record for names added by users (`persona add`) or bios. */
export const PersonaSchema = z.looseObject({
  ...RecordBase,
  name: PersonaName,
  role: z.enum(ROLES),
  theme: z.string(),
  bio: z.string().check(z.maxLength(500)),
});
export type Persona = Known<z.infer<typeof PersonaSchema>>;
