// Media files by time (device-api.md §3 `filesSearch/mediaTime`), oldest first, from an index on items.
import type { Db } from '../db/database.ts';
import type { Principal } from '../http/auth.ts';
import type { Permissions } from '../permissions.ts';
import type { ItemRow } from '../store/items.ts';
import { ReadableItems } from './readable.ts';

/**
 * The media time of an item in milliseconds: its image `date` (EXIF local time, read as UTC), else its
 * mTime when there is no date or SQLite cannot read it. The same expression as the index
 * `items_media_time` of migration 002: SQLite uses an expression index only for an identical
 * expression (white space aside), which the unit tests check with EXPLAIN QUERY PLAN.
 */
export const MEDIA_TIME_SQL = `coalesce(
  CASE WHEN json_valid(image) AND json_type(image, '$.date') = 'text'
    THEN unixepoch(replace(substr(json_extract(image, '$.date'), 1, 10), ':', '-') || 'T'
      || substr(json_extract(image, '$.date'), 12)) * 1000
  END,
  m_time)`;

/** The partial index's condition: live files whose mimeType is image/* or video/* (any case). */
const MEDIA_FILES_SQL =
  "state = 'live' AND is_dir = 0 AND (mime_type LIKE 'image/%' OR mime_type LIKE 'video/%')";

export const MEDIA_GROUPS = ['image', 'video'] as const;
export type MediaGroup = (typeof MEDIA_GROUPS)[number];

export interface MediaTimeQuery {
  /** Inclusive bounds, milliseconds since the epoch. */
  startTime: number;
  endTime: number;
  groups: ReadonlySet<MediaGroup>;
  /** Files whose image width (height) is unknown or smaller are left out when given. */
  minWidth?: number;
  minHeight?: number;
}

/** Where a page ended: the media time and id of its last file. */
export interface MediaCursor {
  time: number;
  id: string;
}

export interface MediaTimePage {
  rows: ItemRow[];
  next: MediaCursor | undefined;
}

export interface MediaSearchSource {
  db: Db;
  permissions: Permissions;
}

type MediaRow = ItemRow & { media_time: number };

const MAX_BATCH = 4096;

export class MediaSearch {
  readonly #source: MediaSearchSource;
  readonly #statements = new Map<string, ReturnType<Db['prepare']>>();

  constructor(source: MediaSearchSource) {
    this.#source = source;
  }

  page(principal: Principal, query: MediaTimeQuery, limit: number, after?: MediaCursor): MediaTimePage {
    const readable = new ReadableItems(this.#source, principal);
    const statement = this.#statement(query);
    const found: MediaRow[] = [];
    let cursor: MediaCursor = after ?? { time: Number.MIN_SAFE_INTEGER, id: '' };
    let batch = Math.min(limit + 1, MAX_BATCH);
    for (;;) {
      const parameters: Record<string, number | string> = {
        start: query.startTime,
        end: query.endTime,
        afterTime: cursor.time,
        afterId: cursor.id,
        limit: batch,
      };
      if (query.minWidth !== undefined) parameters['minWidth'] = query.minWidth;
      if (query.minHeight !== undefined) parameters['minHeight'] = query.minHeight;
      const rows = statement.all(parameters) as MediaRow[];
      for (const row of rows) {
        cursor = { time: row.media_time, id: row.id };
        if (!readable.allows(row.id, row.parent_id)) continue;
        found.push(row);
        if (found.length > limit) break;
      }
      if (found.length > limit || rows.length < batch) break;
      batch = Math.min(batch * 4, MAX_BATCH);
    }
    const page = found.slice(0, limit);
    const last = page.at(-1);
    return {
      rows: page.map(({ media_time: _time, ...row }) => row),
      next: found.length > limit && last ? { time: last.media_time, id: last.id } : undefined,
    };
  }

  #statement(query: MediaTimeQuery): ReturnType<Db['prepare']> {
    const sql = mediaTimeSql(query);
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#source.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}

/**
 * The page query for `query`: seeks the expression index to the range and the cursor, and reads it in
 * order, so a page costs about the rows it returns (plus those the caller may not read).
 */
export function mediaTimeSql(query: MediaTimeQuery): string {
  const conditions = [MEDIA_FILES_SQL, `${MEDIA_TIME_SQL} BETWEEN @start AND @end`];
  conditions.push(`(${MEDIA_TIME_SQL} > @afterTime OR (${MEDIA_TIME_SQL} = @afterTime AND id > @afterId))`);
  // One group narrows the index's two; both are the index's condition itself.
  if (query.groups.size === 1) {
    conditions.push(query.groups.has('image') ? "mime_type LIKE 'image/%'" : "mime_type LIKE 'video/%'");
  }
  if (query.minWidth !== undefined) conditions.push(`${imageNumber('width')} >= @minWidth`);
  if (query.minHeight !== undefined) conditions.push(`${imageNumber('height')} >= @minHeight`);
  return `SELECT *, ${MEDIA_TIME_SQL} AS media_time FROM items WHERE ${conditions.join(' AND ')}
    ORDER BY ${MEDIA_TIME_SQL}, id LIMIT @limit`;
}

function imageNumber(field: 'width' | 'height'): string {
  return `(CASE WHEN json_valid(image) AND json_type(image, '$.${field}') IN ('integer', 'real')
    THEN json_extract(image, '$.${field}') END)`;
}
