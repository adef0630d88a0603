// ledgerwire-connector.exe: the pinned Windows Node runtime made into the connector's own program. Its
// subsystem is set to Windows (GUI) so that starting it — at logon, from the Start menu, from the
// installer — opens no console window (Node discards console output then; the connector logs to files),
// and its icon and version information say "Ledgerwire Connector" in Task Manager and Explorer, keeping
// Node.js's copyright. Rewriting the file drops Node's Authenticode signature; sign the result when a
// code-signing certificate is at hand.
import * as ResEdit from 'resedit';

const IMAGE_SUBSYSTEM_WINDOWS_GUI = 2;
const ENGLISH_US = 1033;
const UNICODE_CODEPAGE = 1200;

/** "0.1.0" or "0.1.0-beta.2" → [0, 1, 0, 0] (Windows versions are four numbers). */
export function windowsVersion(version) {
  const numbers = version.split('-')[0].split('.').map((part) => Number.parseInt(part, 10) || 0);
  return [0, 1, 2, 3].map((i) => numbers[i] ?? 0);
}

export function connectorExecutable({ nodeExe, ico, version, nodeVersion }) {
  const exe = ResEdit.NtExecutable.from(nodeExe, { ignoreCert: true });
  exe.newHeader.optionalHeader.subsystem = IMAGE_SUBSYSTEM_WINDOWS_GUI;
  const resources = ResEdit.NtExecutableResource.from(exe);
  const icon = ResEdit.Data.IconFile.from(ico);
  ResEdit.Resource.IconGroupEntry.replaceIconsForResource(resources.entries, 1, ENGLISH_US, icon.icons.map((item) => item.data));
  const [info] = ResEdit.Resource.VersionInfo.fromEntries(resources.entries);
  const [major, minor, patch, build] = windowsVersion(version);
  info.setFileVersion(major, minor, patch, build, ENGLISH_US);
  info.setProductVersion(major, minor, patch, build, ENGLISH_US);
  info.setStringValues(
    { lang: ENGLISH_US, codepage: UNICODE_CODEPAGE },
    {
      CompanyName: 'Ledgerwire',
      ProductName: 'Ledgerwire Connector',
      FileDescription: 'Ledgerwire Connector',
      FileVersion: version,
      ProductVersion: version,
      OriginalFilename: 'ledgerwire-connector.exe',
      InternalName: 'ledgerwire-connector',
      LegalCopyright: `Ledgerwire. Runs on Node.js ${nodeVersion}: Copyright Node.js contributors, MIT license.`,
    },
  );
  info.outputToResourceEntries(resources.entries);
  resources.outputResource(exe);
  return Buffer.from(exe.generate());
}
