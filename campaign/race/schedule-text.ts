// A schedule as numbered steps a person reads: consecutive steps of one session are one step
// ("s1 runs 11 statements, from … to point 62"), so the length is the number of switches.

const SQL_WIDTH = 90;

function short(sql: string): string {
  const flat = sql.replace(/\s+/g, ' ').trim();
  return flat.length > SQL_WIDTH ? `${flat.slice(0, SQL_WIDTH - 1)}…` : flat;
}

/** One line per run of steps of one session (or one move of store time). */
export function describeSchedule(schedule: ReadonlyArray<string>, stepSql: ReadonlyArray<string | null>): string[] {
  const lines: string[] = [];
  let i = 0;
  while (i < schedule.length) {
    const session = schedule[i]!.replace(/@\d+$/, '');
    let j = i;
    while (j < schedule.length && schedule[j]!.replace(/@\d+$/, '') === session) j++;
    if (session === '@clock') lines.push(`store time moves on${j - i > 1 ? ` (${j - i} times)` : ''}`);
    else {
      const sql = stepSql.slice(i, j).filter((s): s is string => s !== null && s !== '');
      const last = schedule[j - 1]!;
      const point = /@(\d+)$/.exec(last)?.[1];
      const what = sql.length === 0 ? 'steps inside a function' : sql.map(short).join(' | ');
      lines.push(`${session}: ${what}${j - i > 1 ? ` (${j - i} steps)` : ''}${point === undefined ? '' : `, on past point ${point}`}`);
    }
    i = j;
  }
  return lines;
}
