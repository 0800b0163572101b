import { describe, expect, it } from 'vitest';
import { csvCell } from './payouts';

describe('csvCell (CSV injection, docs/decisions/0013-money-movement.md)', () => {
  it('defuses a cell a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-5.00')).toBe("'-5.00");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
  });

  it('quotes commas, quotes and line breaks, and leaves plain cells alone', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('12.50')).toBe('12.50');
    expect(csvCell(null)).toBe('');
    expect(csvCell(42)).toBe('42');
  });
});
