// The shape in which a message's attachments are stored beside it, once services/messages/
// message-attachments.ts has checked them.
/** An attachment ready to store: its base64 text without line breaks, and its decoded size. */
export type CheckedAttachment = Readonly<{
  filename: string;
  content_type: string;
  content_id: string | null;
  size: number;
  content: string;
}>;
