// The only IPC the window may use, one zod schema per channel's payload. The preload exposes
// exactly these channels; the main process validates channel, sender and payload on every call.
import { z } from 'zod';

export const shellIpcChannels = {
  'shell:get-info': z.tuple([]),
  'shell:set-start-at-login': z.tuple([z.object({ enabled: z.boolean() })]),
  'shell:open-data-folder': z.tuple([]),
} as const;

export type ShellIpcChannel = keyof typeof shellIpcChannels;

export const ShellInfo = z.object({
  version: z.string(),
  startAtLogin: z.boolean(),
  dataDir: z.string(),
});
export type ShellInfo = z.infer<typeof ShellInfo>;
