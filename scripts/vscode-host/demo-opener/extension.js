// The workbench remembers the last side bar view per browser, and a first visit shows the Explorer;
// no setting names another default, so the demo's window asks for the GSD container once it is up.
'use strict';
const vscode = require('vscode');

exports.activate = async () => {
  await vscode.commands.executeCommand('workbench.view.extension.gsdReviewLoop');
};
