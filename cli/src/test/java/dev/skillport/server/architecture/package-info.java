/** Architecture rules over every production class of Skillport on the server's class path. */
package dev.skillport.server.architecture;
