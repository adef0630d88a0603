// The connector's log, newest last, at local times; kept scrolled to the end unless the reader has
// scrolled up to read older lines.
import { Panel } from '@ledgerwire/ui-kit';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { LogEntry } from './local-api.js';
import { localTime } from './local-words.js';

export function LogPanel(props: { entries: readonly LogEntry[]; at: Date }) {
  const box = useRef<HTMLPreElement>(null);
  const atEnd = useRef(true);
  const text = props.entries.map((e) => `${localTime(e.at, props.at)}  ${e.level.padEnd(5)}  ${e.message}`).join('\n');
  useLayoutEffect(() => {
    if (box.current && atEnd.current) box.current.scrollTop = box.current.scrollHeight;
  }, [text]);
  const scrolled = () => {
    const element = box.current;
    if (element) atEnd.current = element.scrollHeight - element.scrollTop - element.clientHeight < 24;
  };
  return (
    <Panel title="Log">
      <pre id="log-lines" class="log" ref={box} tabIndex={0} aria-label="Log, newest last" onScroll={scrolled}>
        {text || 'Nothing logged yet.'}
      </pre>
    </Panel>
  );
}
