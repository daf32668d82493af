import { describe, expect, it } from 'vitest';
import { CopiedIds } from './copied-ids.js';

const same = (text: string): string => text;

describe('ids a README reader copies', () => {
  it('types the id printed after the text the README shows before its id, in every later command', () => {
    const ids = new CopiedIds();
    ids.read(['location: /api/workflows/8dcc…/runs/z2SNEnlWz6obHc9a3OSckqS7', '{"approvalId":"7Din84Q0XnpmvTH4pWXY-eeh","stepName":"approve"}'], 'location: /api/workflows/x/runs/-Ab_9876543210zyxwvut\n{"approvalId":"Q1w2E3r4T5y6U7i8O9p0-aaa","stepName":"approve"}', same);
    expect(ids.replace('curl $B/runs/z2SNEnlWz6obHc9a3OSckqS7/approvals/7Din84Q0XnpmvTH4pWXY-eeh', same)).toBe('curl $B/runs/-Ab_9876543210zyxwvut/approvals/Q1w2E3r4T5y6U7i8O9p0-aaa');
  });

  it('leaves what is left to `rest`, never the ids it typed, and says which shown id was not printed', () => {
    const ids = new CopiedIds();
    ids.read(['{"jobId":"RwgjH73RBeQBz1DzzLWYCz-z"}', 'secret: whsec_KLatHSWoZL0OePIos84MEzQ6AFL83RfV'], '{"jobId":"abc-8080-defghijklmnop"}', same);
    expect(ids.replace('curl 127.0.0.1:8080/RwgjH73RBeQBz1DzzLWYCz-z', (text) => text.replaceAll('8080', '41234'))).toBe('curl 127.0.0.1:41234/abc-8080-defghijklmnop');
    expect(() => ids.replace('echo whsec_KLatHSWoZL0OePIos84MEzQ6AFL83RfV', same)).toThrow('the README shows whsec_KLatHSWoZL0OePIos84MEzQ6AFL83RfV after "secret: "');
  });
});
