// Indents the XML of a transaction for reading: one element per line, text kept beside its tags
// (<NAME>Cash</NAME>). Display only; the XML sent to the books is unchanged.
export function indentXml(xml: string): string {
  const tokens = xml.split(/(<[^>]+>)/).filter((token) => token.trim() !== '');
  const lines: string[] = [];
  let depth = 0;
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] ?? '';
    const pad = '  '.repeat(depth);
    if (token.startsWith('</')) {
      depth = Math.max(0, depth - 1);
      lines.push(`${'  '.repeat(depth)}${token}`);
    } else if (token.startsWith('<?') || token.startsWith('<!') || token.endsWith('/>')) {
      lines.push(`${pad}${token}`);
    } else if (token.startsWith('<')) {
      const text = tokens[index + 1];
      const close = tokens[index + 2];
      if (text !== undefined && !text.startsWith('<') && close?.startsWith('</')) {
        lines.push(`${pad}${token}${text}${close}`);
        index += 2;
      } else {
        lines.push(`${pad}${token}`);
        depth += 1;
      }
    } else {
      lines.push(`${pad}${token.trim()}`);
    }
  }
  return lines.join('\n');
}
