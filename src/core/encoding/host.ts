/**
 * What a host tells the core about encodings: which settings apply to a file, which encoding an open editor holds
 * it in, and (in the editor) the codec to decode and encode with. The runner and the MCP server pass their flags; the
 * editor its `files.*` settings per resource and language, its open documents and VS Code's workspace.decode/encode.
 */
import { LOCAL_CODEC, type TextCodec } from './codec';
import { DEFAULT_ENCODING_SETTINGS, type EncodingSettings } from './detect';
import type { EncodingId } from './names';

export interface EncodingHost {
  /** The settings that apply to the file at this absolute path (the adapter's path). */
  settingsFor(absolutePath: string): EncodingSettings | Promise<EncodingSettings>;
  /** The encoding an editor has the file open in; it decides over a BOM or a guess, as the editor saves in it. */
  openEncoding?(absolutePath: string): EncodingId | undefined;
  /** How this host decodes and encodes; LOCAL_CODEC when absent. */
  readonly codec?: TextCodec;
  /** What a refusal names for changing the encoding settings ("the setting files.encoding", "--encoding"). */
  readonly settingName: string;
}

/** For a session that says nothing about encodings: UTF-8, no guessing. */
export const PLAIN_ENCODING_HOST: EncodingHost = {
  settingsFor: () => DEFAULT_ENCODING_SETTINGS,
  codec: LOCAL_CODEC,
  settingName: 'its encoding settings',
};

/** The flags' encoding host: one default encoding and guessing for every file (the runner, the MCP server). */
export function flagEncodingHost(settings: EncodingSettings, settingName: string): EncodingHost {
  return { settingsFor: () => settings, codec: LOCAL_CODEC, settingName };
}
