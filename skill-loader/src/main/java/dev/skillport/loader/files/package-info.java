/** Reading whole small files (skill files and their siblings) with few system calls. */
package dev.skillport.loader.files;
