// The bench's reading of /proc/<pid>/smaps_rollup (bench/smaps.ts), on one recorded from payment-state at the start
// of a bench run (Linux 6, Node 24; 15 node processes of the machine mapped the same node binary).
import { describe, expect, it } from 'vitest';
import { parseSmapsRollup } from './smaps.ts';

const recorded = `00400000-7fff86197000 ---p 00000000 00:00 0                              [rollup]
Rss:              132824 kB
Pss:               78484 kB
Pss_Dirty:         74184 kB
Pss_Anon:          74160 kB
Pss_File:           4324 kB
Pss_Shmem:             0 kB
Shared_Clean:      58580 kB
Shared_Dirty:          0 kB
Private_Clean:        60 kB
Private_Dirty:     74184 kB
Referenced:       132824 kB
Anonymous:         74160 kB
KSM:                   0 kB
LazyFree:              0 kB
AnonHugePages:         0 kB
ShmemPmdMapped:        0 kB
FilePmdMapped:         0 kB
Shared_Hugetlb:        0 kB
Private_Hugetlb:       0 kB
Swap:                  0 kB
SwapPss:               0 kB
Locked:                0 kB
`;

describe("the bench's reading of smaps_rollup", () => {
  it('reads Rss, Pss, Pss_Anon, Pss_File, Shared_Clean, Shared_Dirty and Private_Dirty in MB', () => {
    expect(parseSmapsRollup(recorded)).toEqual({
      rss_mb: 129.7,
      pss_mb: 76.6,
      pss_anon_mb: 72.4,
      pss_file_mb: 4.2,
      shared_clean_mb: 57.2,
      shared_dirty_mb: 0,
      private_dirty_mb: 72.4,
    });
  });

  it('does not take Pss_Dirty or SwapPss for Pss', () => {
    const text = `SwapPss: 999 kB\nPss_Dirty: 999 kB\n${recorded.replace(/^Pss: .*$/m, 'Pss: 1024 kB')}`;
    expect(parseSmapsRollup(text).pss_mb).toBe(1);
  });

  it('throws on a text without one of the fields (an older kernel has no Pss_Anon)', () => {
    expect(() => parseSmapsRollup(recorded.replace(/^Pss_Anon:.*\n/m, ''))).toThrow(/pss_anon_mb/);
    expect(() => parseSmapsRollup('')).toThrow();
  });
});
