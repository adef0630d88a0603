; The Ledgerwire Connector's Windows installer (NSIS 3, Unicode, 64-bit), as a shop owner runs it: for this
; user only, no administrator rights, into %LOCALAPPDATA%\Programs\Ledgerwire Connector; a Start-menu entry;
; start at logon in the background; listed in Apps & features. An upgrade over an older version stops it,
; replaces the program and starts it again; the data folder (%LOCALAPPDATA%\Ledgerwire: pairings, queue,
; credential) is never touched except by an uninstall told to remove it.
;
; Silent, for IT administrators and tests:
;   ledgerwire-connector-setup-<version>.exe /S [/RELAY=<relay URL>] [/CODE=<customer token or setup code>]
;                                               [/BOOKS=<TallyPrime's address>] [/D=<folder>]
; installs, remembers the relay and the books, enrols with the code and starts the connector. Exit code 3:
; installed and running, but the code was refused or the relay unreachable (the connector's page says why).
; Uninstall silently with uninstall.exe /S; add /REMOVEDATA to delete the data folder too.
;
; Built by build/windows/package-windows.mjs, which defines VERSION, WINVERSION (a.b.c.d), STAGE (the folder
; whose files are installed), OUTFILE and COMPRESSOR.

Unicode true
Target amd64-unicode
SetCompressor /SOLID ${COMPRESSOR}
ManifestDPIAware true
RequestExecutionLevel user

!define PRODUCT "Ledgerwire Connector"
!define PUBLISHER "Ledgerwire"
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\LedgerwireConnector"
!define RUN_KEY "Software\Microsoft\Windows\CurrentVersion\Run"
!define EXE "ledgerwire-connector.exe"
; node:sqlite is "experimental" in Node 22; its warning would only reach a console nobody sees.
!define NODE_FLAGS "--disable-warning=ExperimentalWarning"
!define EXIT_NOT_ENROLLED 3

Name "${PRODUCT}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\${PRODUCT}"
InstallDirRegKey HKCU "${UNINSTALL_KEY}" "InstallLocation"
BrandingText "${PRODUCT} ${VERSION}"
VIProductVersion "${WINVERSION}"
VIAddVersionKey "ProductName" "${PRODUCT}"
VIAddVersionKey "CompanyName" "${PUBLISHER}"
VIAddVersionKey "FileDescription" "${PRODUCT} setup"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "LegalCopyright" "${PUBLISHER}"

!include MUI2.nsh
!include LogicLib.nsh
!include FileFunc.nsh
!include Sections.nsh

Var SwitchRelay
Var SwitchCode
Var SwitchBooks
Var EnrolProblem

!define MUI_ICON "${STAGE}\ledgerwire.ico"
!define MUI_UNICON "${STAGE}\ledgerwire.ico"
!define MUI_ABORTWARNING
!define MUI_WELCOMEPAGE_TITLE "Install the Ledgerwire Connector"
!define MUI_WELCOMEPAGE_TEXT "The Ledgerwire Connector connects TallyPrime on this computer to the software your business uses, so that its invoices, receipts and customers reach your books.$\r$\n$\r$\nIt installs for you only (no administrator password), starts by itself when you sign in to Windows and works in the background.$\r$\n$\r$\nClick Next to install it."
!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_INSTFILES
!define MUI_FINISHPAGE_TITLE "The Ledgerwire Connector is installed"
!define MUI_FINISHPAGE_TEXT "It is running now, and starts by itself whenever you sign in to Windows.$\r$\n$\r$\nIts page opens next: type in the code your software provider gave you, then choose your company in TallyPrime. You can open the page again any time from the Start menu: Ledgerwire Connector."
!define MUI_FINISHPAGE_RUN
!define MUI_FINISHPAGE_RUN_TEXT "Open the Ledgerwire Connector"
!define MUI_FINISHPAGE_RUN_FUNCTION OpenConnectorPage
!insertmacro MUI_PAGE_FINISH

!define MUI_UNCONFIRMPAGE_TEXT_TOP "The Ledgerwire Connector will be stopped and removed from this computer. TallyPrime and your books are not changed."
!insertmacro MUI_UNPAGE_CONFIRM
!define MUI_COMPONENTSPAGE_TEXT_TOP "Your Ledgerwire data (this computer's connection, its companies and the vouchers waiting for TallyPrime) is kept unless you tick the box. Keep it if you will install the connector again."
!insertmacro MUI_UNPAGE_COMPONENTS
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

; The value of a switch such as /RELAY= on the command line: from just after its "=" to the next " /"
; (the start of another switch) or the end, without quotes or spaces around it; "" when it is absent.
; (FileFunc's GetOptions would cut https://relay.example at its first "/".)
; Stack in: the switch with its "=", e.g. "/RELAY="; stack out: its value.
Function SwitchValue
  Exch $R0
  Push $R1
  Push $R2
  Push $R3
  Push $R4
  Push $R5
  ${GetParameters} $R1
  StrCpy $R1 " $R1"
  StrLen $R4 $R0
  StrCpy $R2 0
  StrCpy $R5 ""
  find:
    StrCpy $R3 $R1 $R4 $R2
    StrCmp $R3 "" done
    StrCmp $R3 $R0 0 next
    ; Only where a switch can begin: after a space or a quote.
    IntOp $R3 $R2 - 1
    StrCpy $R3 $R1 1 $R3
    StrCmp $R3 " " found
    StrCmp $R3 '"' found
  next:
    IntOp $R2 $R2 + 1
    Goto find
  found:
    IntOp $R2 $R2 + $R4
    StrCpy $R4 $R2
  scan:
    StrCpy $R3 $R1 1 $R2
    StrCmp $R3 "" cut
    StrCpy $R3 $R1 2 $R2
    StrCmp $R3 " /" cut
    IntOp $R2 $R2 + 1
    Goto scan
  cut:
    IntOp $R3 $R2 - $R4
    StrCpy $R5 $R1 $R3 $R4
  trim_end:
    StrCpy $R3 $R5 1 -1
    StrCmp $R3 " " +2
    StrCmp $R3 '"' 0 trim_start
    StrCpy $R5 $R5 -1
    Goto trim_end
  trim_start:
    StrCpy $R3 $R5 1
    StrCmp $R3 '"' 0 done
    StrCpy $R5 $R5 "" 1
    Goto trim_start
  done:
    StrCpy $R0 $R5
    Pop $R5
    Pop $R4
    Pop $R3
    Pop $R2
    Pop $R1
    Exch $R0
FunctionEnd

; The installed connector's command line, to which each use adds its command.
!define CONNECTOR '"$INSTDIR\${EXE}" ${NODE_FLAGS} "$INSTDIR\app\connector.cjs"'

Function .onInit
  ; One installer at a time for this user: a second one would replace files the first is writing.
  System::Call 'kernel32::CreateMutex(p 0, i 0, t "LedgerwireConnectorSetup") p .r1 ?e'
  Pop $0
  ${If} $0 == 183
    MessageBox MB_ICONINFORMATION|MB_OK "The Ledgerwire Connector is already being installed. Finish that installation first." /SD IDOK
    SetErrorLevel 1
    Quit
  ${EndIf}
  Push "/RELAY="
  Call SwitchValue
  Pop $SwitchRelay
  Push "/CODE="
  Call SwitchValue
  Pop $SwitchCode
  Push "/BOOKS="
  Call SwitchValue
  Pop $SwitchBooks
FunctionEnd

; Before files are replaced: an older connector that runs is asked to stop (it finishes the import under way).
Function StopRunningConnector
  ${If} ${FileExists} "$INSTDIR\${EXE}"
  ${AndIf} ${FileExists} "$INSTDIR\app\connector.cjs"
    DetailPrint "Stopping the running Ledgerwire Connector…"
    nsExec::ExecToLog `${CONNECTOR} stop`
    Pop $0
  ${EndIf}
FunctionEnd

; /RELAY, /BOOKS and /CODE, given to the installer, handed to the connector. The code goes through the
; environment (LEDGERWIRE_ENROL_CODE), never a command line other programs can read.
Function SetUpFromSwitches
  StrCpy $EnrolProblem ""
  StrCpy $1 ""
  ${If} $SwitchRelay != ""
    StrCpy $1 `$1 --relay "$SwitchRelay"`
  ${EndIf}
  ${If} $SwitchBooks != ""
    StrCpy $1 `$1 --books "$SwitchBooks"`
  ${EndIf}
  ${If} $1 != ""
    nsExec::ExecToStack `${CONNECTOR} configure --plain$1`
    Pop $0
    Pop $2
    ${If} $0 != 0
      StrCpy $EnrolProblem $2
    ${EndIf}
  ${EndIf}
  ${If} $SwitchCode != ""
  ${AndIf} $EnrolProblem == ""
    DetailPrint "Connecting this computer with the code given…"
    System::Call 'kernel32::SetEnvironmentVariable(t "LEDGERWIRE_ENROL_CODE", t "$SwitchCode") i'
    nsExec::ExecToStack `${CONNECTOR} enroll --plain`
    Pop $0
    Pop $2
    System::Call 'kernel32::SetEnvironmentVariable(t "LEDGERWIRE_ENROL_CODE", p 0) i'
    ${If} $0 != 0
      StrCpy $EnrolProblem $2
    ${EndIf}
  ${EndIf}
FunctionEnd

Section "Ledgerwire Connector" SecProgram
  SectionIn RO
  SetShellVarContext current
  Call StopRunningConnector
  SetOutPath "$INSTDIR"
  ; The old version's program files go; the data folder is elsewhere and stays.
  RMDir /r "$INSTDIR\app"
  File "${STAGE}\${EXE}"
  File "${STAGE}\ledgerwire.ico"
  File "${STAGE}\THIRD-PARTY-NOTICES.txt"
  File /r "${STAGE}\app"
  WriteUninstaller "$INSTDIR\uninstall.exe"

  CreateShortCut "$SMPROGRAMS\${PRODUCT}.lnk" "$INSTDIR\${EXE}" `${NODE_FLAGS} "$INSTDIR\app\connector.cjs" open` "$INSTDIR\ledgerwire.ico" 0 SW_SHOWNORMAL "" "Open the Ledgerwire Connector"
  WriteRegStr HKCU "${RUN_KEY}" "${PRODUCT}" `${CONNECTOR} run --background`

  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayName" "${PRODUCT}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "Publisher" "${PUBLISHER}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\ledgerwire.ico"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  IntFmt $0 "0x%08X" $0
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "EstimatedSize" "$0"

  Call SetUpFromSwitches
  DetailPrint "Starting the Ledgerwire Connector…"
  Exec `${CONNECTOR} run --background`
  ${If} $EnrolProblem != ""
    DetailPrint "Not connected yet: $EnrolProblem"
    SetErrorLevel ${EXIT_NOT_ENROLLED}
    MessageBox MB_ICONEXCLAMATION|MB_OK "The Ledgerwire Connector is installed, but it could not connect yet:$\r$\n$\r$\n$EnrolProblem$\r$\n$\r$\nIts page opens at the end: check the code there and try again." /SD IDOK
  ${EndIf}
SectionEnd

Function OpenConnectorPage
  Exec `${CONNECTOR} open`
FunctionEnd

Section "un.Ledgerwire Connector" SecUnProgram
  SectionIn RO
  SetShellVarContext current
  ${If} ${FileExists} "$INSTDIR\app\connector.cjs"
    DetailPrint "Stopping the Ledgerwire Connector…"
    nsExec::ExecToLog `${CONNECTOR} stop`
    Pop $0
  ${EndIf}
  DeleteRegValue HKCU "${RUN_KEY}" "${PRODUCT}"
  Delete "$SMPROGRAMS\${PRODUCT}.lnk"
  DeleteRegKey HKCU "${UNINSTALL_KEY}"
  RMDir /r "$INSTDIR"
SectionEnd

Section /o "un.Also delete my Ledgerwire data" SecUnData
  ReadEnvStr $0 LEDGERWIRE_DATA_DIR
  ${If} $0 == ""
    StrCpy $0 "$LOCALAPPDATA\Ledgerwire"
  ${EndIf}
  DetailPrint "Deleting $0"
  RMDir /r "$0"
SectionEnd

Function un.onInit
  ${GetParameters} $0
  ClearErrors
  ${GetOptions} $0 "/REMOVEDATA" $1
  ${IfNot} ${Errors}
    !insertmacro SelectSection ${SecUnData}
  ${EndIf}
FunctionEnd
