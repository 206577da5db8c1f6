/**
 * Images written by real encoders, for the tests of image reads: test/fixtures/images, made with ImageMagick 6.9
 * (`convert -size 37x23 gradient:red-blue`, `plasma:fractal`, `-interlace JPEG` for the progressive one) and cwebp
 * 1.2 (lossy, `-lossless`, and with an alpha channel, which makes the extended VP8X form). The pixel size is in each
 * name, and is what ImageMagick's `identify` reports.
 */
import * as path from 'node:path';

export const IMAGES = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'images');

/** Every fixture with the format and size its name and encoder say. */
export const FIXTURES: readonly { readonly file: string; readonly mimeType: string; readonly width: number; readonly height: number }[] = [
  { file: 'gradient-37x23.png', mimeType: 'image/png', width: 37, height: 23 },
  { file: 'plasma-41x19.jpg', mimeType: 'image/jpeg', width: 41, height: 19 },
  { file: 'progressive-41x19.jpg', mimeType: 'image/jpeg', width: 41, height: 19 },
  { file: 'gradient-29x31.gif', mimeType: 'image/gif', width: 29, height: 31 },
  { file: 'lossy-45x27.webp', mimeType: 'image/webp', width: 45, height: 27 },
  { file: 'lossless-33x17.webp', mimeType: 'image/webp', width: 33, height: 17 },
  { file: 'alpha-21x13.webp', mimeType: 'image/webp', width: 21, height: 13 },
];
