// The one device this server is: made on first start and kept in the database.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/database.ts';

export interface DeviceRow {
  id: string;
  name: string;
  model_id: string;
  serial_number: string;
  created_on: number;
}

export function ensureDeviceRecord(db: Db, now: number): DeviceRow {
  const existing = db.prepare<[], DeviceRow>('SELECT * FROM device LIMIT 1').get();
  if (existing) return existing;
  const row: DeviceRow = {
    id: randomUUID(),
    name: 'My Cloud Home (local)',
    model_id: 'sebring',
    serial_number: `MCH${randomBytes(6).toString('hex').toUpperCase()}`,
    created_on: now,
  };
  db.prepare(
    'INSERT INTO device (id, name, model_id, serial_number, created_on) VALUES (@id, @name, @model_id, @serial_number, @created_on)',
  ).run(row);
  return row;
}
