// Which of the 256 wrapping sequence numbers were seen lately, to tell a resent packet (same number)
// from a new one. A number counts as seen until the newest number is 128 or more past it: half the
// space behind the newest is remembered, the half ahead is free for what comes next. Packets may
// arrive out of order; only a jump of 128 or more ahead (which a live session never makes) is misread.
export class SeqWindow {
  private readonly marks = new Uint8Array(256);
  /** The newest number seen; -1 before the first. */
  private newest = -1;

  has(seq: number): boolean {
    return this.marks[seq & 0xff] === 1;
  }

  /** Records `seq`; returns false when it was already seen (a repeat). */
  add(seq: number): boolean {
    seq &= 0xff;
    if (this.marks[seq] === 1) return false;
    const ahead = this.newest < 0 ? 1 : (seq - this.newest) & 0xff;
    if (ahead >= 1 && ahead < 128) {
      // Each step forward forgets the number 128 behind it: it belongs to the previous lap.
      for (let step = 1; step <= ahead; step++) this.marks[(seq - ahead + step + 128) & 0xff] = 0;
      this.newest = seq;
    }
    this.marks[seq] = 1;
    return true;
  }

  /** A new session numbers from 0 again. */
  clear(): void {
    this.marks.fill(0);
    this.newest = -1;
  }
}
