#pragma once
// kopt analyzer stub: the C library's host functions (stdio, string, stdlib, ctype) that host helpers around kernels
// call: declared so the helpers parse and their types stay (memcpy, memset, malloc and free are the toolkit's, in
// analyzers/cuda_decls.h, force-included)
extern "C" {
struct FILE;
extern FILE *stdin, *stdout, *stderr;
#define EOF (-1)
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
#define BUFSIZ 8192
int fprintf(FILE *, const char *, ...); int sprintf(char *, const char *, ...);
int snprintf(char *, size_t, const char *, ...); int vsnprintf(char *, size_t, const char *, __builtin_va_list);
int vfprintf(FILE *, const char *, __builtin_va_list); int sscanf(const char *, const char *, ...);
int fscanf(FILE *, const char *, ...); int puts(const char *); int fputs(const char *, FILE *); int fputc(int, FILE *);
int putchar(int); int getchar(); int fgetc(FILE *); char *fgets(char *, int, FILE *); void perror(const char *);
FILE *fopen(const char *, const char *); int fclose(FILE *); int fflush(FILE *); int feof(FILE *);
size_t fread(void *, size_t, size_t, FILE *); size_t fwrite(const void *, size_t, size_t, FILE *);
int fseek(FILE *, long, int); long ftell(FILE *); void rewind(FILE *); int remove(const char *);
size_t strlen(const char *); int strcmp(const char *, const char *); int strncmp(const char *, const char *, size_t);
char *strcpy(char *, const char *); char *strncpy(char *, const char *, size_t); char *strcat(char *, const char *);
char *strncat(char *, const char *, size_t); char *strtok(char *, const char *); char *strdup(const char *);
char *strerror(int); int memcmp(const void *, const void *, size_t); void *memmove(void *, const void *, size_t);
void *calloc(size_t, size_t); void *realloc(void *, size_t);
char *getenv(const char *); int setenv(const char *, const char *, int); int system(const char *);
int atoi(const char *); long atol(const char *); long long atoll(const char *); double atof(const char *);
long strtol(const char *, char **, int); unsigned long strtoul(const char *, char **, int);
long long strtoll(const char *, char **, int); unsigned long long strtoull(const char *, char **, int);
double strtod(const char *, char **); float strtof(const char *, char **);
int rand(); void srand(unsigned); void qsort(void *, size_t, size_t, int (*)(const void *, const void *));
[[noreturn]] void abort(); [[noreturn]] void exit(int); int atexit(void (*)());
int isdigit(int); int isalpha(int); int isalnum(int); int isspace(int); int isupper(int); int islower(int);
int isprint(int); int ispunct(int); int isxdigit(int); int tolower(int); int toupper(int);
extern int errno;
}  // extern "C"
// C++'s overloads of the C functions that return a pointer into their argument (C++ linkage even where the header
// is included inside `extern "C" { }`, as a C library's own header declares them: darknet's kernels wrap theirs)
extern "C++" {
const char *strchr(const char *, int); char *strchr(char *, int); const char *strrchr(const char *, int);
char *strrchr(char *, int); const char *strstr(const char *, const char *); char *strstr(char *, const char *);
}  // extern "C++"
namespace std {
using ::FILE; using ::fprintf; using ::sprintf; using ::snprintf; using ::vsnprintf; using ::vfprintf; using ::sscanf;
using ::fscanf; using ::puts; using ::fputs; using ::fputc; using ::putchar; using ::getchar; using ::fgetc;
using ::fgets; using ::perror; using ::fopen; using ::fclose; using ::fflush; using ::feof; using ::fread;
using ::fwrite; using ::fseek; using ::ftell; using ::rewind; using ::remove; using ::strlen; using ::strcmp;
using ::strncmp; using ::strcpy; using ::strncpy; using ::strcat; using ::strncat; using ::strchr; using ::strrchr;
using ::strstr; using ::strtok; using ::strerror; using ::memcmp; using ::memmove; using ::memcpy; using ::memset;
using ::malloc; using ::free; using ::calloc; using ::realloc; using ::getenv; using ::system; using ::atoi;
using ::atol; using ::atoll; using ::atof; using ::strtol; using ::strtoul; using ::strtoll; using ::strtoull;
using ::strtod; using ::strtof; using ::rand; using ::srand; using ::qsort; using ::abort; using ::exit;
using ::atexit; using ::isdigit; using ::isalpha; using ::isalnum; using ::isspace; using ::isupper; using ::islower;
using ::isprint; using ::ispunct; using ::isxdigit; using ::tolower; using ::toupper;
}  // namespace std
