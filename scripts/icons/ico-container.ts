// Writes and reads the Windows .ico container with PNG-compressed images (supported since Windows Vista).
//
// Layout (ICONDIR, then one ICONDIRENTRY per image, then the images): reserved 0, type 1 (icon), count; each
// entry: width and height (0 means 256), colour count 0, reserved 0, planes 1, bits per pixel 32, byte size,
// offset. Every image here is a PNG, so no BMP encoder is needed.

/** One image of an icon: its square size in pixels and the PNG bytes. */
export interface IcoImage {
  size: number;
  png: Buffer;
}

const DIR_BYTES = 6;
const ENTRY_BYTES = 16;

/** The .ico file holding `images` in the given order (smallest first is the convention). */
export function encodeIco(images: readonly IcoImage[]): Buffer {
  const dir = Buffer.alloc(DIR_BYTES + ENTRY_BYTES * images.length);
  dir.writeUInt16LE(0, 0);
  dir.writeUInt16LE(1, 2);
  dir.writeUInt16LE(images.length, 4);
  let offset = dir.length;
  images.forEach((image, index) => {
    if (image.size < 1 || image.size > 256) throw new RangeError(`ico: size ${image.size} is not 1..256`);
    const at = DIR_BYTES + ENTRY_BYTES * index;
    dir[at] = image.size === 256 ? 0 : image.size;
    dir[at + 1] = image.size === 256 ? 0 : image.size;
    dir[at + 2] = 0;
    dir[at + 3] = 0;
    dir.writeUInt16LE(1, at + 4);
    dir.writeUInt16LE(32, at + 6);
    dir.writeUInt32LE(image.png.length, at + 8);
    dir.writeUInt32LE(offset, at + 12);
    offset += image.png.length;
  });
  return Buffer.concat([dir, ...images.map((image) => image.png)]);
}

/** The images of an .ico file written by encodeIco (or any PNG-compressed icon), for checks. */
export function decodeIco(file: Buffer): IcoImage[] {
  if (file.readUInt16LE(0) !== 0 || file.readUInt16LE(2) !== 1) throw new Error('ico: not an icon file');
  const count = file.readUInt16LE(4);
  const images: IcoImage[] = [];
  for (let index = 0; index < count; index += 1) {
    const at = DIR_BYTES + ENTRY_BYTES * index;
    const width = file[at] === 0 ? 256 : (file[at] ?? 0);
    const size = file.readUInt32LE(at + 8);
    const offset = file.readUInt32LE(at + 12);
    images.push({ size: width, png: file.subarray(offset, offset + size) });
  }
  return images;
}
