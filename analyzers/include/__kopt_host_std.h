#pragma once
// kopt analyzer stub: the host library types that declarations around kernels name (a class's
// `friend std::ostream& operator<<`, a std::string member, a std::vector of sizes, a std::map of names). Host code
// is not analyzed; these only let such declarations parse, so the kernels that use them stay on the libclang path.
namespace std {
class ostream;
typedef ostream &(*__kopt_manip)(ostream &);
struct ios_base {
  typedef int fmtflags;
  typedef int openmode;
  static const int in = 1, out = 2, binary = 4, app = 8, trunc = 16, ate = 32;
  static const int fixed = 1, scientific = 2, left = 4, right = 8, hex = 16, dec = 32, boolalpha = 64;
};
class ios : public ios_base {
 public:
  bool good() const; bool fail() const; bool eof() const; bool bad() const; explicit operator bool() const;
  bool operator!() const; int precision(int); int precision() const; int width(int); char fill(char);
  fmtflags flags(fmtflags); fmtflags setf(fmtflags); fmtflags setf(fmtflags, fmtflags); void unsetf(fmtflags);
};
class ostream : virtual public ios {
 public:
  template <class T> ostream &operator<<(const T &);
  ostream &operator<<(__kopt_manip);
  ostream &write(const char *, long); ostream &put(char); ostream &flush();
};
class istream : virtual public ios {
 public:
  template <class T> istream &operator>>(T &);
  istream &read(char *, long); istream &get(char &); int get(); istream &ignore(long = 1, int = -1);
  long gcount() const; istream &seekg(long); istream &seekg(long, int); long tellg();
};
class iostream : public istream, public ostream {};
extern ostream cout, cerr, clog;
extern istream cin;
ostream &endl(ostream &); ostream &flush(ostream &); ostream &fixed(ostream &); ostream &scientific(ostream &);
ostream &left(ostream &); ostream &right(ostream &); ostream &hex(ostream &); ostream &dec(ostream &);
struct __kopt_setter { int v; };
__kopt_setter setprecision(int); __kopt_setter setw(int); __kopt_setter setfill(char);

class string {
 public:
  static const unsigned long npos = ~0ul;
  string(); string(const char *); string(const char *, unsigned long); string(unsigned long, char);
  string(const string &);
  string &operator=(const string &); string &operator=(const char *);
  string &operator+=(const string &); string &operator+=(const char *); string &operator+=(char);
  const char *c_str() const; const char *data() const; unsigned long size() const; unsigned long length() const;
  bool empty() const; char &operator[](unsigned long); const char &operator[](unsigned long) const;
  string substr(unsigned long = 0, unsigned long = npos) const; unsigned long find(const string &) const;
  unsigned long find(char) const; int compare(const string &) const; void clear(); void resize(unsigned long);
  void push_back(char); char *begin(); char *end(); const char *begin() const; const char *end() const;
};
string operator+(const string &, const string &); string operator+(const string &, const char *);
string operator+(const char *, const string &); bool operator==(const string &, const string &);
bool operator!=(const string &, const string &); bool operator<(const string &, const string &);
bool operator==(const string &, const char *); string to_string(int); string to_string(long);
string to_string(unsigned); string to_string(unsigned long); string to_string(long long);
string to_string(unsigned long long); string to_string(float); string to_string(double);
int stoi(const string &); long stol(const string &); float stof(const string &); double stod(const string &);
istream &getline(istream &, string &); istream &getline(istream &, string &, char);

class ofstream : public ostream {
 public:
  ofstream(); explicit ofstream(const char *, int = ios_base::out); explicit ofstream(const string &, int = ios_base::out);
  void open(const char *, int = ios_base::out); void open(const string &, int = ios_base::out); bool is_open() const;
  void close();
};
class ifstream : public istream {
 public:
  ifstream(); explicit ifstream(const char *, int = ios_base::in); explicit ifstream(const string &, int = ios_base::in);
  void open(const char *, int = ios_base::in); void open(const string &, int = ios_base::in); bool is_open() const;
  void close();
};
class fstream : public iostream {
 public:
  fstream(); explicit fstream(const char *, int = ios_base::in | ios_base::out); void open(const char *, int);
  bool is_open() const; void close();
};
class ostringstream : public ostream { public: ostringstream(); string str() const; void str(const string &); };
class istringstream : public istream { public: istringstream(); explicit istringstream(const string &); };
class stringstream : public iostream {
 public:
  stringstream(); explicit stringstream(const string &); string str() const; void str(const string &);
};

template <class T, class A = void> class vector {
 public:
  typedef T value_type; typedef unsigned long size_type; typedef T *iterator; typedef const T *const_iterator;
  vector(); explicit vector(unsigned long); vector(unsigned long, const T &); vector(const vector &);
  template <class It> vector(It, It);
  vector &operator=(const vector &);
  T &operator[](unsigned long); const T &operator[](unsigned long) const; T &at(unsigned long);
  T *data(); const T *data() const; unsigned long size() const; bool empty() const; unsigned long capacity() const;
  void push_back(const T &); template <class... X> T &emplace_back(X &&...); void pop_back();
  void resize(unsigned long); void resize(unsigned long, const T &); void reserve(unsigned long); void clear();
  void assign(unsigned long, const T &); T &front(); T &back(); const T &front() const; const T &back() const;
  T *begin(); T *end(); const T *begin() const; const T *end() const;
  T *insert(const T *, const T &); T *erase(const T *);
};
template <class K, class V, class C = void, class A = void> class map {
 public:
  typedef K key_type; typedef V mapped_type; typedef pair<K, V> value_type; typedef value_type *iterator;
  typedef const value_type *const_iterator;
  map(); map(initializer_list<pair<K, V>>); map(const map &);
  V &operator[](const K &); V &at(const K &); const V &at(const K &) const;
  iterator find(const K &); const_iterator find(const K &) const; unsigned long count(const K &) const;
  unsigned long size() const; bool empty() const; void clear(); unsigned long erase(const K &);
  pair<iterator, bool> insert(const value_type &); template <class... X> pair<iterator, bool> emplace(X &&...);
  iterator begin(); iterator end(); const_iterator begin() const; const_iterator end() const;
};
template <class K, class V, class H = void, class E = void, class A = void> class unordered_map
    : public map<K, V> { public: using map<K, V>::map; };
template <class K, class C = void, class A = void> class set {
 public:
  typedef const K *iterator;
  set(); set(initializer_list<K>); pair<iterator, bool> insert(const K &); unsigned long count(const K &) const;
  iterator find(const K &) const; unsigned long size() const; bool empty() const; void clear();
  iterator begin() const; iterator end() const;
};
template <class K, class H = void, class E = void, class A = void> class unordered_set
    : public set<K> { public: using set<K>::set; };
}  // namespace std
