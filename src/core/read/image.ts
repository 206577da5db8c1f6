/**
 * read_file of an image: a PNG, JPEG, GIF or WebP file (told by its first bytes, not its name) comes back as the
 * image itself, beside an envelope holding its format, pixel size and hash. Text reads take no detour for it: only a
 * file the text read refuses as binary is looked at again.
 */
import { WithImage } from '../envelope';
import { limitExceeded } from '../contract/caps';
import { ToolError } from '../errors';
import { type ConfinedPath, namePair } from '../confinement';
import { contentHash } from '../files/text';
import type { ToolContext } from '../context';
import { humanSize } from './bytes';
import { IMAGE_SNIFF_BYTES, imageFormatOf, readImageHeader } from './imageHeader';

/**
 * The largest image read_file hands over: about what model APIs take for one image (Anthropic's limit is 5 MB), since
 * Agent FS does not scale images down, and one that an API refuses is better refused here, with its size.
 */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

const FORMAT_NAMES = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/gif': 'GIF', 'image/webp': 'WebP' } as const;

/** The line options, which mean nothing for an image. */
interface ImageRequest {
  readonly start_line?: number;
  readonly end_line?: number;
  readonly tail_lines?: number;
}

/**
 * The image at `path` (a readable file of `size` bytes) as read_file answers it, or undefined when its first bytes
 * announce none of the four formats. Refuses line options (INVALID_INPUT), a host that cannot pass images and a
 * damaged header (BINARY_CONTENT_REFUSED), and images above IMAGE_MAX_BYTES (LIMIT_EXCEEDED).
 */
export async function readImage(context: ToolContext, path: ConfinedPath, size: number, input: ImageRequest) {
  const { fs } = context.workspace;
  // Without ranged reads the text read already read the file whole (it refuses larger ones first): so does this.
  const whole = fs.readRange ? undefined : await fs.readFile(path.absolute);
  const head = whole ?? (await fs.readRange?.(path.absolute, 0, IMAGE_SNIFF_BYTES)) ?? new Uint8Array();
  const mimeType = imageFormatOf(head);
  if (mimeType === undefined) return undefined;
  const format = FORMAT_NAMES[mimeType];
  const given = (['start_line', 'end_line', 'tail_lines'] as const).find((name) => input[name] !== undefined);
  if (given !== undefined) {
    throw new ToolError('INVALID_INPUT', `${path.display} is a ${format} image, which has no lines: read it without ${given}.`, {
      field: given,
    });
  }
  const refusal = context.host?.imageRefusal ?? (context.host ? undefined : 'This host does not pass images to a model.');
  if (refusal !== undefined) {
    throw new ToolError('BINARY_CONTENT_REFUSED', `${path.display} is a ${format} image, and it cannot be shown here: ${refusal}`, {
      mime_type: mimeType,
    });
  }
  const tooLarge = (bytes: number): ToolError =>
    limitExceeded(
      'size_bytes',
      IMAGE_MAX_BYTES,
      `${path.display} is a ${format} image of ${humanSize(bytes)}; Agent FS passes images of at most ${humanSize(IMAGE_MAX_BYTES)} to a model and does not scale them down.`,
      path.display,
    );
  if (size > IMAGE_MAX_BYTES) throw tooLarge(size);
  const bytes = whole ?? (await fs.readFile(path.absolute));
  // It may have grown since it was measured.
  if (bytes.length > IMAGE_MAX_BYTES) throw tooLarge(bytes.length);
  const header = readImageHeader(bytes);
  if (header === undefined || 'damaged' in header) {
    throw new ToolError(
      'BINARY_CONTENT_REFUSED',
      `${path.display} starts like a ${format} image, but its header is damaged (no pixel size can be read from it), so it is not passed to a model.`,
      { mime_type: mimeType },
    );
  }
  const { name, relative_path } = namePair(path);
  return new WithImage(
    {
      file_name: name,
      relative_path,
      mime_type: header.mimeType,
      width: header.width,
      height: header.height,
      size_bytes: bytes.length,
      content_hash: contentHash(bytes),
    },
    { mimeType: header.mimeType, bytes },
  );
}
