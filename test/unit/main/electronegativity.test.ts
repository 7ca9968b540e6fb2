// Electronegativity over main/ and the bundled preload finds nothing above low that is not accepted with a reason; the verdict's parsing and matching checked on their own.
import { describe, expect, it } from 'vitest';
import {
  describeVerdict,
  judge,
  parseFindingsCsv,
  readAllowList,
  runElectronegativity,
} from '../../../scripts/electronegativity.ts';

const CSV = `issue, severity, confidence, filename, location, sample, description, url
CSP_GLOBAL_CHECK,"MEDIUM","CERTAIN","N/A","0:0",N/A,"No CSP has been detected",https://x/CSP
OPEN_EXTERNAL_JS_CHECK,"MEDIUM","TENTATIVE","main/main.ts","53:2","shell.openExternal(url, { a: ""b"" })","Review",https://x/OPEN
SOME_LOW_CHECK,"LOW","FIRM","main/tray.ts","1:1","x","low",https://x/LOW
NODE_INTEGRATION_JS_CHECK,"HIGH","FIRM","main/window.ts","19:17","new BrowserWindow({","Disable",https://x/NODE
`;

describe('the verdict', () => {
  const findings = parseFindingsCsv(CSV);

  it('reads every row of the CSV, quotes and commas inside fields included', () => {
    expect(findings.map((finding) => finding.check)).toEqual([
      'CSP_GLOBAL_CHECK',
      'OPEN_EXTERNAL_JS_CHECK',
      'SOME_LOW_CHECK',
      'NODE_INTEGRATION_JS_CHECK',
    ]);
    expect(findings[1]).toMatchObject({
      file: 'main/main.ts',
      sample: 'shell.openExternal(url, { a: "b" })',
    });
  });

  it('refuses what is above low and not accepted, ignores low, and names accepted entries that match nothing', () => {
    const verdict = judge(findings, [
      { check: 'OPEN_EXTERNAL_JS_CHECK', file: 'main/main.ts', reason: 'only http(s)' },
      { check: 'CSP_GLOBAL_CHECK', file: 'N/A', reason: 'a header' },
      { check: 'PRELOAD_JS_CHECK', file: 'main/window.ts', reason: 'gone' },
    ]);
    expect(verdict.refused.map((finding) => finding.check)).toEqual(['NODE_INTEGRATION_JS_CHECK']);
    expect(verdict.stale.map((entry) => entry.check)).toEqual(['PRELOAD_JS_CHECK']);
    // Accepted for one file only.
    expect(
      judge(findings, [{ check: 'OPEN_EXTERNAL_JS_CHECK', file: 'main/x.ts', reason: 'r' }]).refused,
    ).toHaveLength(3);
  });

  it('wants a reason for every accepted finding', () => {
    expect(() => readAllowList('{"allow":[{"check":"X","file":"main/a.ts","reason":" "}]}')).toThrow(
      /reason/,
    );
    expect(() => parseFindingsCsv('not,csv\n')).toThrow();
  });
});

describe('Electronegativity 1.10.3 over main/ and the preload bundle', () => {
  it('reports nothing above low that build/electronegativity-allow.json does not accept', async () => {
    const verdict = await runElectronegativity();
    expect(verdict.findings.length, describeVerdict(verdict)).toBeGreaterThan(0);
    expect(verdict.refused, describeVerdict(verdict)).toEqual([]);
    expect(verdict.stale, describeVerdict(verdict)).toEqual([]);
  }, 120_000);
});
