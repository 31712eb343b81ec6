/**
 * What the modules' tests share: the pinned interop tools, outside commands run to their end, and
 * the check that no test class leaves files in the test home or temp folder. Entry points: {@link
 * dev.skillport.testsupport.LaunchedServer} and {@link dev.skillport.testsupport.InteropTools}.
 */
package dev.skillport.testsupport;
