/// The part of the Chrome DevTools protocol the web module speaks, in one place: every command
/// it sends and every event it reads. A browser that changes one of these is a browser the
/// module must be checked against; `DevToolsProtocolTests` fails when the module's code names a
/// method this does not list, or this lists one the code no longer names.
enum DevToolsProtocol {
  /// The commands sent, by domain.
  static let commands: Set<String> = [
    "Accessibility.getFullAXTree",
    "Browser.getVersion",
    "DOMStorage.getDOMStorageItems", "Browser.resetPermissions", "Browser.setDownloadBehavior",
    "Emulation.setDeviceMetricsOverride", "Emulation.setEmulatedMedia",
    "Emulation.setLocaleOverride",
    "Emulation.setTimezoneOverride",
    "Fetch.continueRequest", "Fetch.enable", "Fetch.failRequest",
    "HeadlessExperimental.beginFrame",
    "Inspector.enable",
    "Network.enable",
    "Page.captureScreenshot", "Page.createIsolatedWorld", "Page.enable",
    "Page.handleJavaScriptDialog", "Page.navigate",
    "Preload.enable",
    "Runtime.enable", "Runtime.evaluate", "Runtime.runIfWaitingForDebugger",
    "Storage.clearCookies", "Storage.clearDataForOrigin", "Storage.getCookies",
    "Storage.getUsageAndQuota",
    "Target.attachToTarget", "Target.closeTarget", "Target.createBrowserContext",
    "Target.createTarget", "Target.detachFromTarget", "Target.getTargetInfo",
    "Target.getTargets",
    "Target.disposeBrowserContext", "Target.setAutoAttach",
  ]

  /// The events read, by domain.
  static let events: Set<String> = [
    "Fetch.requestPaused",
    "Inspector.targetCrashed",
    "Network.webSocketCreated", "Network.webTransportCreated",
    "Page.downloadWillBegin", "Page.frameRequestedNavigation", "Page.javascriptDialogOpening",
    "Page.loadEventFired",
    "Preload.prefetchStatusUpdated", "Preload.ruleSetUpdated",
    "Runtime.exceptionThrown",
    "Target.attachedToTarget", "Target.detachedFromTarget",
  ]
}
