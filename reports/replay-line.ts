// Every failure shows one line that replays it (docs/ARCHITECTURE.md "The CLI contract"). Producers may
// hand over the command alone or the whole printed line; the reports always show the line.

export function replayLine(replay: string): string {
  return replay.startsWith('replay:') ? replay : `replay: ${replay}`;
}
