import * as z from "zod/mini";
import { ROLES } from "../roles.js";
import { RecordBase } from "./common.js";

/** Persona names: letters and digits first, then letters, digits, spaces and . ' - (no control characters). */
export const PERSONA_NAME = /^[\p{L}\p{N}][\p{L}\p{N} .'-]{0,39}$/u;

export const PersonaName = z.string().check(z.regex(PERSONA_NAME));

/** Optional record for names added by users (`persona add`) or bios. */
export const PersonaSchema = z.object({
  ...RecordBase,
  name: PersonaName,
  role: z.enum(ROLES),
  theme: z.string(),
  bio: z.string().check(z.maxLength(500)),
});
export type Persona = z.infer<typeof PersonaSchema>;
