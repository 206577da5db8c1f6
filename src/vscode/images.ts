/**
 * Images in tool results: `vscode.LanguageModelDataPart.image`, stable since VS Code 1.106. This extension's types
 * are 1.100's, the oldest VS Code it runs on: the class is looked up on the running `vscode` module. Older hosts
 * carry it too, as proposed API whose place in tool results nothing promises, so it is used from 1.106 on only;
 * before that read_file refuses images with the reason below rather than hand over a part that may be dropped.
 */
import * as vscode from 'vscode';
import type { ImageAttachment } from '../core/envelope';
import { toolRef } from '../core/naming';

type ImagePart = (image: ImageAttachment) => unknown;

/** The version images in tool results became stable API. */
const IMAGES_SINCE = [1, 106] as const;

function atLeast(version: string, [major, minor]: readonly [number, number]): boolean {
  const [hostMajor = 0, hostMinor = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  return hostMajor > major || (hostMajor === major && hostMinor >= minor);
}

function lookUpImagePart(): ImagePart | undefined {
  if (!atLeast(vscode.version, IMAGES_SINCE)) return undefined;
  const dataPart: unknown = Reflect.get(vscode, 'LanguageModelDataPart');
  if (typeof dataPart !== 'function') return undefined;
  const image: unknown = Reflect.get(dataPart, 'image');
  if (typeof image !== 'function') return undefined;
  return (attachment) => {
    const part: unknown = Reflect.apply(image, dataPart, [attachment.bytes, attachment.mimeType]);
    return part;
  };
}

/** Makes the result part for an image, on hosts that have LanguageModelDataPart; undefined on older ones. */
export const imagePart: ImagePart | undefined = lookUpImagePart();

/** What read_file answers for an image on a host without LanguageModelDataPart; undefined where images pass. */
export function imageRefusal(): string | undefined {
  return imagePart
    ? undefined
    : `VS Code ${vscode.version} cannot pass an image to a model (VS Code 1.106 and later can); ${toolRef('file_info')} gives its size.`;
}
