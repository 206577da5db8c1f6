/**
 * The tools' input validators compiled when the bundles are built: esbuild.mjs replaces this module with ajv's
 * standalone code for every tool's input schema, compiled with validation.ts's options from the same definitions,
 * so a server's or the editor's first call of a tool does not compile its schema (about 30 ms for the first one in
 * a fresh process). As the type check and the unit tests see it there are none, and validation.ts compiles each
 * schema on first use, which gives the same code.
 */
import type { ValidateFunction } from 'ajv';

export const PRECOMPILED: Readonly<Record<string, ValidateFunction | undefined>> = {};
