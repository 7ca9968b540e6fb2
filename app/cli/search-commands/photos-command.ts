// `mch-sync photos --from DATE --to DATE`: the photos on the device taken in a range of days, oldest first, with where each one is.
import { knownFolderPairs } from '../../profile/known-pairs.ts';
import { ItemPlaces } from '../../search/item-places.ts';
import { parseDateRange } from '../../search/photo-dates.ts';
import { DEFAULT_PHOTO_LIMIT, MAX_PHOTO_LIMIT, searchPhotos } from '../../search/photo-search.ts';
import { checkLimit } from '../../search/text-search.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';
import { withDeviceAdvice } from '../terminal/device-failures.ts';
import { openDeviceSession } from '../account-commands/device-session.ts';
import { photoLines, photosJson, photosSummary } from './photos-output.ts';
import { rejectedWarning } from './search-output.ts';
import { readLimit, usageChecked } from './search-command.ts';

type Values = Record<string, string | boolean | undefined>;

export const PHOTOS_USAGE = `Usage: mch-sync [--profile DIR] photos --from DATE --to DATE [--limit N] [--videos] [--json]

Lists the photos on the device taken from one date to another (both included), oldest first: when
each was taken, the camera, its size, its path on the device and where it is on this computer when
it is in a synced folder ("not synced here" otherwise). A photo without a camera date counts by the
time it was last modified.

Dates:
  YYYY-MM-DD          a whole day: --from starts at its first moment, --to ends at its last
  YYYY-MM-DDTHH:MM[:SS][Z|+HH:MM]
                      that moment (without Z or an offset: on this computer's clock)
  Days and times are on this computer's clock. A camera's date has no time zone and is taken as
  written: a photo taken at 23:30 on 2024-06-30 by the camera's clock is in --to 2024-06-30.

Options:
  --from DATE   the first day (or moment)
  --to DATE     the last day (or moment), not before --from
  --limit N     at most N results, 1-${MAX_PHOTO_LIMIT} (default ${DEFAULT_PHOTO_LIMIT}); the summary says when there are more
  --videos      list videos too (by the time they were last modified)
  --json        machine-readable output (below)
  -h, --help    show this help

--json prints {from, to, photos, more, rejected}: each photo is {id, name, devicePath, localPath,
mimeType, size, mTime, mediaTime, mediaTimeSource, width, height, cameraMake, cameraModel}; from, to
and mediaTime are ISO 8601 times without a zone (this computer's clock), mediaTimeSource is "camera"
or "modified", unknown values are null; more is true when --limit left some out.

Exit codes: 0 searched (also when nothing was found), 1 failed, 2 usage error.`;

export async function runPhotos(context: CommandContext, values: Values): Promise<number> {
  const fromText = values['from'] as string | undefined;
  const toText = values['to'] as string | undefined;
  if (fromText === undefined || toText === undefined) {
    throw new UsageError('Give both --from DATE and --to DATE.', PHOTOS_USAGE);
  }
  const limit = readLimit(values, PHOTOS_USAGE) ?? DEFAULT_PHOTO_LIMIT;
  const videos = values['videos'] === true;
  const range = usageChecked(PHOTOS_USAGE, () => {
    checkLimit(limit, MAX_PHOTO_LIMIT);
    return parseDateRange(fromText, toText);
  });
  const { client } = await openDeviceSession(context);
  const pairs = await knownFolderPairs(context.profileDir, context.warn);
  const places = new ItemPlaces({ pairs, client });
  try {
    const result = await withDeviceAdvice('search the device for photos', () =>
      searchPhotos(client, places, { range, limit, videos, signal: context.deps.signal }),
    );
    if (values['json'] === true) {
      context.print(JSON.stringify(photosJson(range, result), null, 2));
      return 0;
    }
    for (const photo of result.photos) {
      for (const line of photoLines(photo)) context.print(line);
      context.print();
    }
    context.print(photosSummary(range, result, videos));
    const warning = rejectedWarning(result.rejected, 'file');
    if (warning !== undefined) context.warn(warning);
    return 0;
  } finally {
    places.close();
  }
}
