// The demo's sample content: a few folders and documents, and photos with camera and date metadata, written into a new demo folder.
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { jpegWithExif, type ExifTags } from '../test/helpers/images.ts';

interface Photo {
  path: string;
  width: number;
  height: number;
  exif: ExifTags;
}

// Generated here, byte by byte: headers only (they carry size and EXIF, which is what search reads).
const PHOTOS: Photo[] = [
  {
    path: 'Photos/2024/harbour.jpg',
    width: 6000,
    height: 4000,
    exif: { make: 'Canon', model: 'Canon EOS R5', dateTimeOriginal: '2024:03:10 09:15:00' },
  },
  {
    path: 'Photos/2024/mountain lake.jpg',
    width: 6048,
    height: 4024,
    exif: { make: 'NIKON CORPORATION', model: 'NIKON Z 6', dateTimeOriginal: '2024:07:21 18:42:10' },
  },
  {
    path: 'Photos/2024/birthday cake.jpg',
    width: 4032,
    height: 3024,
    exif: { make: 'Apple', model: 'iPhone 15', dateTimeOriginal: '2024:11:02 16:05:33' },
  },
  {
    path: 'Photos/2025/first snow.jpg',
    width: 4000,
    height: 3000,
    exif: { make: 'FUJIFILM', model: 'X-T5', dateTimeOriginal: '2025:01:14 08:01:45' },
  },
];

const DOCUMENTS: Array<{ path: string; text: string }> = [
  {
    path: 'Documents/Quarterly report.txt',
    text: 'Q3: revenue up 12 %, costs flat. Next: hire two engineers.\n',
  },
  { path: 'Documents/Budget 2025.csv', text: 'item,amount\nrent,1200\nfood,450\ntravel,300\n' },
  { path: 'Documents/Recipes/Pancakes.md', text: '# Pancakes\n\n- 200 g flour\n- 2 eggs\n- 300 ml milk\n' },
  {
    path: 'Notes/Ideas.md',
    text: '- A tray app that never loses a file\n- Share links from the file manager\n',
  },
  { path: 'Notes/Trip to Lisbon.txt', text: 'Day 1: Alfama. Day 2: Belém. Day 3: Sintra.\n' },
];

/**
 * Fills `folder` with the sample content when it does not exist yet (the first demo run), and says
 * whether it did: an existing folder is the user's and is never written into.
 */
export function writeDemoContent(folder: string): boolean {
  if (existsSync(folder)) return false;
  for (const document of DOCUMENTS) write(folder, document.path, document.text);
  for (const photo of PHOTOS) {
    const path = write(
      folder,
      photo.path,
      jpegWithExif({ width: photo.width, height: photo.height, exif: photo.exif }),
    );
    // The file's own time matches the camera's, as a copy from a camera would have.
    const [day = '', time = ''] = (photo.exif.dateTimeOriginal ?? '').split(' ');
    const taken = new Date(`${day.replaceAll(':', '-')}T${time}`);
    if (!Number.isNaN(taken.getTime())) utimesSync(path, taken, taken);
  }
  return true;
}

function write(folder: string, relative: string, data: string | Buffer): string {
  const path = join(folder, ...relative.split('/'));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
  return path;
}
