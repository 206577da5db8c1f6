/**
 * The editor's encoding rules, so that the tools and an open editor read every file in the same encoding: the
 * encoding a document is open in (TextDocument.encoding, what the editor saves with), then VS Code's settings for
 * that file as VS Code resolves them — `files.encoding` per folder and per language, `files.autoGuessEncoding`,
 * `files.candidateGuessEncodings` — applied in the core's detection (encoding/detect.ts). The legacy encodings are
 * decoded and encoded by VS Code itself (workspace.decode / encode with the encoding named), so the two share
 * every table; UTF-8 and UTF-16 are the same everywhere and stay local, which saves a round trip per read.
 *
 * A file's language, which per-language settings need, is the open document's; else VS Code's own association
 * rules over the file name (files.associations, then the languages extensions contribute), worked out only when
 * some language sets files.encoding at all.
 */
import { minimatch } from 'minimatch';
import * as vscode from 'vscode';
import { LOCAL_CODEC, type TextCodec } from '../core/encoding/codec';
import type { EncodingSettings } from '../core/encoding/detect';
import type { EncodingHost } from '../core/encoding/host';
import { type EncodingId, encodingNamed } from '../core/encoding/names';
import { basename } from '../core/paths';

function isUnicode(encoding: EncodingId): boolean {
  return encoding === 'utf8' || encoding === 'utf8bom' || encoding === 'utf16le' || encoding === 'utf16be';
}

/** VS Code's own codec for the legacy encodings: the same iconv-lite tables an editor decodes the file with. */
const EDITOR_CODEC: TextCodec = {
  async decode(body, encoding) {
    if (isUnicode(encoding)) return LOCAL_CODEC.decode(body, encoding);
    try {
      return await vscode.workspace.decode(body, { encoding });
    } catch {
      // workspace.decode refuses content it takes for binary (a NUL byte); a named encoding reads it all the same.
      return LOCAL_CODEC.decode(body, encoding);
    }
  },
  async encode(text, encoding) {
    if (isUnicode(encoding)) return LOCAL_CODEC.encode(text, encoding);
    return vscode.workspace.encode(text, { encoding });
  },
};

interface LanguageAssociation {
  readonly id: string;
  readonly extensions: readonly string[];
  readonly filenames: readonly string[];
  readonly filenamePatterns: readonly string[];
}

interface LanguageContribution {
  readonly id?: unknown;
  readonly extensions?: unknown;
  readonly filenames?: unknown;
  readonly filenamePatterns?: unknown;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((each): each is string => typeof each === 'string') : [];
}

/** The languages installed extensions contribute, with the file names they claim; read again when extensions change. */
let associations: LanguageAssociation[] | undefined;
let watching = false;

function languageAssociations(): LanguageAssociation[] {
  if (!watching) {
    watching = true;
    vscode.extensions.onDidChange(() => {
      associations = undefined;
    });
  }
  associations ??= vscode.extensions.all.flatMap((extension) => {
    const contributes = (extension.packageJSON as { contributes?: { languages?: unknown } }).contributes;
    const languages = Array.isArray(contributes?.languages) ? (contributes.languages as LanguageContribution[]) : [];
    return languages.flatMap((language) =>
      typeof language.id === 'string'
        ? [
            {
              id: language.id,
              extensions: strings(language.extensions),
              filenames: strings(language.filenames),
              filenamePatterns: strings(language.filenamePatterns),
            },
          ]
        : [],
    );
  });
  return associations;
}

/** The language VS Code gives a file it has not opened: files.associations first, then file names, patterns, extensions. */
function languageByName(uri: vscode.Uri): string | undefined {
  const name = basename(uri.path);
  const lower = name.toLowerCase();
  const userAssociations = vscode.workspace.getConfiguration('files', uri).get<Record<string, string>>('associations') ?? {};
  for (const [pattern, id] of Object.entries(userAssociations)) {
    const target = pattern.includes('/') ? uri.path : name;
    if (minimatch(target, pattern, { dot: true, nocase: true, matchBase: !pattern.includes('/') })) return id;
  }
  const known = languageAssociations();
  return (
    known.find((language) => language.filenames.some((each) => each.toLowerCase() === lower))?.id ??
    known.find((language) => language.filenamePatterns.some((pattern) => minimatch(name, pattern, { dot: true, nocase: true })))?.id ??
    // The longest extension wins (".d.ts" over ".ts"), as in VS Code.
    known
      .flatMap((language) =>
        language.extensions
          .filter((extension) => lower.endsWith(extension.toLowerCase()))
          .map((extension) => ({ id: language.id, extension })),
      )
      .sort((a, b) => b.extension.length - a.extension.length)[0]?.id
  );
}

function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((document) => document.uri.toString() === key);
}

/** The editor's EncodingHost; `uriOf` turns the core's absolute paths back into the workspace's URIs. */
export class EditorEncodings implements EncodingHost {
  readonly codec = EDITOR_CODEC;
  readonly settingName = 'the setting files.encoding for it (or files.autoGuessEncoding)';

  constructor(private readonly uriOf: (path: string) => vscode.Uri) {}

  settingsFor(absolutePath: string): EncodingSettings {
    const uri = this.uriOf(absolutePath);
    let configuration = vscode.workspace.getConfiguration('files', uri);
    // Only when some language sets files.encoding does the file's language matter.
    if ((configuration.inspect('encoding')?.languageIds?.length ?? 0) > 0) {
      const languageId = openDocument(uri)?.languageId ?? languageByName(uri);
      if (languageId !== undefined) configuration = vscode.workspace.getConfiguration('files', { uri, languageId });
    }
    const candidates = (configuration.get<unknown[]>('candidateGuessEncodings') ?? [])
      .map((name) => (typeof name === 'string' ? encodingNamed(name) : undefined))
      .filter((id): id is EncodingId => id !== undefined);
    return {
      default: encodingNamed(configuration.get<string>('encoding') ?? 'utf8') ?? 'utf8',
      guess: configuration.get<boolean>('autoGuessEncoding') === true,
      candidates,
    };
  }

  openEncoding(absolutePath: string): EncodingId | undefined {
    const document = openDocument(this.uriOf(absolutePath));
    // TextDocument.encoding is there since VS Code 1.100; read defensively all the same.
    const encoding: unknown = document?.encoding;
    return typeof encoding === 'string' ? encodingNamed(encoding) : undefined;
  }
}
