/**
 * A list of names (products, vendors, controls, indicators) in one line of text for a person or a
 * model to read. Names are anyone's text: a comma inside one would make four controls read as
 * five. So the separator is the first of a few that no name of the list contains; when every one
 * occurs, each name is quoted as a JSON string. Pure.
 */
const SEPARATORS = ["; ", " | ", " / ", " · "] as const;

export function nameList(names: readonly string[]): string {
  const separator = SEPARATORS.find((s) => !names.some((name) => name.includes(s.trim())));
  return separator ? names.join(separator) : names.map((name) => JSON.stringify(name)).join(", ");
}

/** "3 controls: A; B; C" / "1 control: A" / "no controls". */
export function countedNames(names: readonly string[], noun: string, plural = `${noun}s`): string {
  if (names.length === 0) return `no ${plural}`;
  return `${names.length} ${names.length === 1 ? noun : plural}: ${nameList(names)}`;
}
